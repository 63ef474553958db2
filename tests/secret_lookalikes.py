"""Text that holds no credential, grouped by where it comes from.

The secret gate refuses a whole selection for one secret-shaped value, so
every refusal of text like this blocks a reviewer's work.  Three kinds:

- summaries of coding conversations, written the way people keep notes of
  an assistant conversation, many of them about credentials;
- short passages quoted from documentation and source read on this
  machine (the CPython standard library, the packages of the dev venv);
- false positives that gitleaks publishes beside its rules, kept only
  where they are plainly not secrets (placeholders, runs, redactions).

Values that would look random (digests, commit IDs, UUIDs, base64) are
computed here from fixed inputs, and vendor prefixes are split by
concatenation, so that nothing in this file is shaped like a credential.
"""

from __future__ import annotations

import base64
import hashlib
import uuid

# Vendor prefixes, split so that no scanner reads one in this file.
OPENAI = "s" + "k-"
GITHUB = "gh" + "p_"
GITLAB = "gl" + "pat-"
SLACK_BOT = "xo" + "xb-"
AWS_ID = "AK" + "IA"
STRIPE_LIVE = "s" + "k_live_"
HUGGING_FACE = "h" + "f_"
BEGIN = "-----" + "BEGIN"
END = "-----" + "END"
PRIVATE_KEY = "PRIVATE" + " KEY"

# Identifiers computed from fixed inputs: they are what they say they are
# (a digest of a named file, a commit of a named change), never secrets.
COMMIT = hashlib.sha1(b"fix the login redirect loop", usedforsecurity=False).hexdigest()
OTHER_COMMIT = hashlib.sha1(b"revert the session cookie change", usedforsecurity=False).hexdigest()
TARBALL_SHA256 = hashlib.sha256(b"notes-2.4.0.tar.gz").hexdigest()
WHEEL_SHA256 = hashlib.sha256(b"projection-0.1.0-py3-none-any.whl").hexdigest()
IMAGE_DIGEST = hashlib.sha256(b"registry.example.org/app:1.8.2").hexdigest()
ASSET_HASH = hashlib.sha256(b"favicon.ico").hexdigest()[:32]
BUNDLE_HASH = hashlib.sha256(b"main.js").hexdigest()[:20]
ORDER_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "https://shop.example.org/orders/1042"))
TENANT_ID = str(uuid.uuid5(uuid.NAMESPACE_DNS, "tenant.example.org"))
REQUEST_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "https://api.example.org/requests/77"))
HELLO_B64 = base64.b64encode(b"hello, reviewer").decode()
CONFIG_B64 = base64.b64encode(b"log_level: debug\nworkers: 4\n").decode()
USER_COLON_B64 = base64.b64encode(b"username:password").decode()

# Summaries that name how a password is stored: a scheme, not a value.
HASHING = (
    "User asked how we store logins. Stored password: Argon2id-hashed with a per-user salt, "
    "memory cost 64 MiB, three iterations. Assistant said that is fine for 2026.",
    "Notes from the auth review. Passwords: SHA256-hashed (legacy table), bcrypt for new rows. "
    "We decided to rehash on next login.",
    "Assistant explained bcrypt cost factors. password: bcrypt, cost 12 takes about 250 ms on the "
    "staging box, which the user found acceptable.",
    "We compared schemes:\n- password_hash: argon2id\n- legacy_password_hash: md5-crypt (to migrate)\n"
    "Assistant recommended a migration flag per user.",
    "User pasted the Django setting and asked if the order matters:\n"
    'PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher", '
    '"django.contrib.auth.hashers.PBKDF2PasswordHasher"]\n'
    "Answer: the first one hashes new passwords, the others only verify.",
    "Password storage: PBKDF2-HMAC-SHA256, 600000 iterations, 16-byte salt. The assistant checked "
    "this against the OWASP cheat sheet numbers.",
    "In the Go service we use golang.org/x/crypto/bcrypt:\n"
    "hash, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)\n"
    "User asked whether DefaultCost (10) is enough; we bumped it to 12.",
    "Rust side: the assistant showed argon2::Argon2::default().hash_password(password.as_bytes(), &salt) "
    "and said the PHC string it returns is safe to store.",
    "Discussed what the PHC string looks like: $argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>. "
    "Nothing secret in the format itself, the user just wanted to recognise it in the DB.",
    "Credentials table: password column is scrypt (N=2^15, r=8, p=1). We agreed not to log it.",
    "User: is SHA-1 ok for passwords? Assistant: no, use a slow KDF; SHA-1 is fine for the git object "
    "IDs we were talking about earlier, not for passwords.",
    "Password policy settled: min length 12, no composition rules, check against a breached-password "
    "list, hash: argon2id.",
    "passwords: hashed with bcrypt ($2b$ prefix), salts are inside the hash so no separate column.",
    "Assistant listed Spring options: BCryptPasswordEncoder(12), Argon2PasswordEncoder, "
    "DelegatingPasswordEncoder with {bcrypt} prefix. We picked the delegating one.",
    "Node: we use the argon2 package. await argon2.hash(password, { type: argon2.argon2id }). "
    "User asked about timing attacks; argon2.verify is constant-time enough.",
    "Password hashing in Laravel: Hash::make($request->password) uses bcrypt by default; config/hashing.php "
    "has 'driver' => 'argon2id' after our change.",
    "Old PHP app: password = md5(password) (yes, really). Plan: wrap it, argon2id(md5(pw)), then rehash on login.",
    "Keycloak realm settings: Password policy: hashAlgorithm(pbkdf2-sha512) and hashIterations(210000). "
    "Assistant noted Keycloak 24 defaults.",
    "We reviewed the LDAP schema: userPassword attribute holds {SSHA} hashes; the user wanted to move "
    "to {ARGON2}. Needs the OpenLDAP argon2 module.",
    "Summary: password -> argon2id; api tokens -> stored as SHA-256 of the token, shown once; "
    "session ids -> random 32 bytes, never stored hashed.",
)

# Summaries that name where a credential lives: a profile, role, DN, file,
# variable or secret store, never the value.
REFERENCES = (
    "Credentials: AWS_PROFILE=prod-admin for the deploy, AWS_PROFILE=dev for everything else. "
    "User asked why the CLI ignored the profile; it was AWS_DEFAULT_PROFILE overriding it.",
    "We set up LDAP auth in Django:\n"
    'AUTH_LDAP_SERVER_URI = "ldaps://ldap.example.com"\n'
    'AUTH_LDAP_BIND_DN = "cn=django-agent,dc=example,dc=com"\n'
    'AUTH_LDAP_BIND_PASSWORD = os.environ["LDAP_BIND_PASSWORD"]',
    "The GitHub Actions step reads the token from secrets:\n"
    "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  GH_TOKEN: ${{ github.token }}\n"
    "Assistant said secrets are masked in logs anyway.",
    "Compose file for the db:\n"
    "services:\n  db:\n    image: postgres:16\n    environment:\n"
    "      POSTGRES_PASSWORD_FILE: /run/secrets/db\n    secrets:\n      - db\n"
    "secrets:\n  db:\n    file: ./db_password.txt",
    "Spring config uses env:DB_PASSWORD through the placeholder syntax: "
    "spring.datasource.password=${DB_PASSWORD}. Works in k8s because the Secret is mounted as env.",
    "Kubernetes: the pod gets the password from a secretKeyRef:\n"
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: app-db\n        key: password",
    "Terraform: password = var.db_password and the variable is marked sensitive = true. "
    "User asked if it still lands in state; yes, in plain text, so the state bucket is encrypted.",
    'We moved to AWS Secrets Manager: secret_id = "prod/app/db". The Lambda role has '
    "secretsmanager:GetSecretValue on that ARN only.",
    "Vault path for the service: secret/data/payments/api. token_role: payments-ci. "
    "The CI job logs in with JWT auth, no static token.",
    "In the shell script the user had password=$DB_PASS; the assistant suggested quoting: "
    'password="$DB_PASS" and set -u so an unset variable fails.',
    "Terraform provider block:\n"
    'provider "postgresql" {\n  host     = var.pg_host\n  username = var.pg_user\n'
    "  password = data.aws_secretsmanager_secret_version.pg.secret_string\n}",
    "Azure: the app reads the key with DefaultAzureCredential from Key Vault kv-prod-weu; "
    "secret name: storage-account-key. No connection string in appsettings any more.",
    "GCP: gcloud secrets versions access latest --secret=api-key. We grant roles/secretmanager.secretAccessor "
    "to the run service account.",
    "IAM role for CI: arn:aws:iam::123456789012:role/github-deploy. No access keys, OIDC only. "
    "User was surprised this works without credentials.",
    "The .pgpass discussion: the file lives at ~/.pgpass with mode 0600 and libpq reads it; "
    "PGPASSFILE can point elsewhere. We did not paste its contents.",
    "Nginx basic auth: auth_basic_user_file /etc/nginx/.htpasswd; the file is generated with htpasswd -B. "
    "Assistant reminded that the file must not be in the web root.",
    "git credential helper: credential.helper=store writes ~/.git-credentials in plain text, "
    "so we switched to credential.helper=osxkeychain on the Mac and libsecret on Linux.",
    'Docker login in CI: echo "$REGISTRY_TOKEN" | docker login ghcr.io -u "$GITHUB_ACTOR" --password-stdin. '
    "Assistant explained why --password on the command line leaks into ps.",
    "SSH: IdentityFile ~/.ssh/id_ed25519_work and IdentitiesOnly yes in ~/.ssh/config for the work host.",
    'Ansible: ansible_become_password: "{{ vault_become_password }}" and the vault file is encrypted '
    "with ansible-vault. User asked about --ask-vault-pass in CI; we use a vault id script instead.",
    "Helm values: existingSecret: redis-auth and existingSecretPasswordKey: redis-password, "
    "so the chart does not generate one.",
    "Kafka client config: sasl.jaas.config uses ${file:/etc/kafka/secrets.properties:sasl.password} "
    "with the FileConfigProvider.",
    "MySQL: the user asked about mysql_config_editor. It writes ~/.mylogin.cnf (obfuscated, not encrypted); "
    "login-path=deploy then mysql --login-path=deploy.",
    "We use 1Password CLI references in .env.tpl: DB_PASSWORD=op://Engineering/postgres-prod/password, "
    "and op inject renders it at start.",
    "Service account: sa-reporting@project-id.iam.gserviceaccount.com; the key file path is in "
    "GOOGLE_APPLICATION_CREDENTIALS=/var/run/gcp/key.json, mounted from a secret.",
    "Jenkinsfile: withCredentials([string(credentialsId: 'sonar-token', variable: 'SONAR_TOKEN')]) "
    "{ sh 'sonar-scanner -Dsonar.token=$SONAR_TOKEN' }",
    "The Rails app reads Rails.application.credentials.dig(:stripe, :secret_key); master key comes from "
    "RAILS_MASTER_KEY in the environment of the container.",
    'Go: token := os.Getenv("GITHUB_TOKEN"); if token == "" { log.Fatal("GITHUB_TOKEN not set") }',
    'Rust: let api_key = std::env::var("OPENAI_API_KEY").expect("set OPENAI_API_KEY");',
    "TypeScript: const secret = process.env.JWT_SECRET ?? throwMissing('JWT_SECRET');",
    'Python: password = keyring.get_password("smtp", user). Assistant said keyring picks the '
    "platform backend (Keychain, Secret Service, Credential Locker).",
    "Postgres role: CREATE ROLE reporting LOGIN IN ROLE readonly; password set via \\password in psql "
    "so it never appears in the history.",
    "Credentials for the staging DB are in the team vault under Staging / Postgres (owner: ops).",
)

# Summaries with a value masked, redacted or shown only in part.
MASKED = (
    "User pasted a masked key from the dashboard: " + OPENAI + "...Xy9Z. Assistant said the last four "
    "characters are all the dashboard shows and are safe to share.",
    "Card on file: ****1234, expires 08/29. Nothing else was shared.",
    "The log line read Authorization: Bearer ***** (redacted by the proxy). Good, the filter works.",
    "The token starts with " + GITHUB + "\u2026 and the user cut it with an ellipsis before pasting, as asked.",
    "Assistant asked for the key's last four only; user answered: ends in 7f2c.",
    "API key: [REDACTED]. We discussed why the old one was revoked.",
    'Error body: {"error": "invalid_api_key", "key": "' + OPENAI + '****...****a1B2"}. '
    "The provider masks the key in its own error message.",
    "Config dump with masking on:\ndb.password=********\ndb.user=app\ncache.token=<hidden>",
    "The Stripe dashboard shows " + STRIPE_LIVE + "...4xQ2 for the restricted key; that is enough to identify it.",
    "AWS console shows the access key as " + AWS_ID + "************ABCD in the IAM user page.",
    "gh auth status prints: Token: " + "gh" + "o_************************************ (hidden).",
    "kubectl get secret app -o yaml showed data: password: <redacted by our kubectl plugin>.",
    "Sentry scrubbed it: password: [Filtered]. The user wanted to know which fields are scrubbed by default.",
    "Terraform plan output: + password = (sensitive value). Assistant: that is the sensitive flag working.",
    "Bitbucket pipeline log: export API_TOKEN=$$$$$$$ (masked variable).",
    "OpenAI key: " + OPENAI + "...Xy9Z (masked). Assistant: rotate it anyway since the full key was in a "
    "screenshot earlier.",
    "token: " + GITHUB + "… (cut). The user only wanted to know whether the prefix means a classic PAT.",
    "api_key=****1234 is what the billing page shows; we used it to find which project the key belongs to.",
    "password: ******** (the user typed stars on purpose).",
    "secret: <redacted>, client_id: reporting-app. Assistant asked which grant type the app uses.",
)

# Summaries about test runs: "pass" and "fail" are results, not passwords.
TEST_RESULTS = (
    "Test results - pass: LoginFlowV2, fail: CheckoutV3. Assistant traced CheckoutV3 to a stale fixture.",
    "CI summary: passed: 412, failed: 3, skipped: 12. The three failures are all in test_password_reset.py.",
    "go test ./... output:\n--- PASS: TestTokenRefresh (0.02s)\n--- FAIL: TestTokenExpiry (0.00s)\n"
    "User asked why expiry fails only on CI: the clock.",
    "pytest -k auth: 18 passed, 1 xfail (test_legacy_md5_passwords, expected).",
    "Pass: AuthMiddlewareTests, Pass: SessionStoreTests, Fail: PasswordResetMailerTests (SMTP mock).",
    "jest: Tests: 2 failed, 88 passed, 90 total. Failing: useAuthToken.test.ts, refreshToken.test.ts.",
    "cargo test: test auth::tests::rejects_expired_token ... ok; test auth::tests::parses_bearer ... FAILED",
    "The user ran the suite again: PASS tests/token.spec.ts, PASS tests/secret-store.spec.ts. All green.",
    "Lighthouse: Performance 92, Accessibility 100, Best Practices 96, SEO 100. Passed audits: 41.",
    "Mutation testing: 87% killed; survivors in password_strength() where the length check is off by one.",
    "Results: pass=LoginSmoke, fail=SignupSmoke, blocked=PaymentSmoke (no sandbox).",
    "RSpec: 212 examples, 0 failures. The user asked about the pending spec in spec/auth/token_spec.rb.",
)

# Summaries about tokenizers and model settings: "tokens" counted, not held.
TOKENIZERS = (
    'We looked at the Llama tokenizer config: special tokens are bos_token="<s>", eos_token="</s>", '
    'unk_token="<unk>". Assistant explained why pad_token is often unset.',
    "Tokens: o200k_base for GPT-4o, cl100k_base for GPT-4 and 3.5. User wanted to count tokens offline "
    'with tiktoken.get_encoding("o200k_base").',
    "Request settings: max_tokens=4096, temperature=0.2, top_p=1. The user hit the limit at 4096 output tokens.",
    'tokenizer.add_special_tokens({"pad_token": "[PAD]"}) then model.resize_token_embeddings(len(tokenizer)).',
    'Assistant explained BPE merges: the tokenizer.json has a vocab of 32000 tokens and merges like "t h".',
    "We counted tokens: the prompt is 1,812 tokens, the context window 128k tokens, so chunking is not needed.",
    "chat template: {{ bos_token }}{% for m in messages %}"
    "<|im_start|>{{ m.role }}\\n{{ m.content }}<|im_end|>{% endfor %}",
    "sentencepiece model: tokenizer.model; token_type_ids are all 0; "
    'special_tokens_map.json has "mask_token": "[MASK]".',
    'max_new_tokens: 512, stop tokens: ["</s>", "<|eot_id|>"]. The user asked why generation ran on; '
    "the stop token id was wrong.",
    "OpenAI usage in the response: prompt_tokens: 1204, completion_tokens: 311, total_tokens: 1515.",
    'Tokenizer comparison: GPT-2 BPE splits "tokenization" into token + ization; WordPiece gives token ##ization.',
    "Lexer discussion: token: Token = lexer.next_token(); match token.kind { TokenKind::Ident => ... }",
    "Python's tokenize module: tokenize.generate_tokens(io.StringIO(src).readline) yields TokenInfo tuples.",
    "Assistant said the embedding model truncates at 8191 tokens; our summaries are far below that.",
    "Token budget per branch summary: 500 tokens; we keep a 10% margin for the system prompt.",
)

# Summaries that quote lists of names: identifiers, not values.
IDENTIFIER_LISTS = (
    "User asked what the auth module exports. It has "
    '__all__ = ["Auth", "BasicAuth", "DigestAuth", "TokenAuth", "OAuth2Session"]; '
    "assistant suggested dropping OAuth2Session from the public list.",
    'Enum values we agreed on: AUTH_METHODS = ("password", "passkey", "sso", "magic-link").',
    'The scopes list in the OAuth app: scopes = ["read:user", "repo", "workflow", "admin:public_key"].',
    "Sensitive field names for the log scrubber:\n"
    'SENSITIVE_KEYS = {"password", "passwd", "secret", "token", "api_key", "authorization", "cookie"}',
    'TypeScript union: type CredentialKind = "password" | "token" | "certificate" | "ssh-key";',
    "Rust enum: enum Credential { Password(SecretString), Token(SecretString), KeyFile(PathBuf) } "
    "and the assistant explained why SecretString zeroes on drop.",
    "Go constants: const ( AuthNone AuthMode = iota; AuthPassword; AuthToken; AuthMTLS ). "
    'String() returns "password", "token", "mtls".',
    'Headers to drop before logging: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"].',
    "gitignore entries we added: .env, .env.*, !.env.example, *.pem, *.key, secrets/, .npmrc",
    'The form fields: fields = ("username", "password1", "password2", "email") from UserCreationForm.',
    "Pydantic: model_config = ConfigDict(hide_input_in_errors=True) and the fields "
    "password, refresh_token and client_secret are SecretStr.",
    'Django REST: extra_kwargs = {"password": {"write_only": True}, "token": {"read_only": True}}',
)

# Summaries with type annotations and signatures: a type, not a value.
ANNOTATIONS = (
    "Assistant showed the key exchange:\n"
    "private_key: X25519PrivateKey = X25519PrivateKey.generate()\n"
    "public_key: X25519PublicKey = private_key.public_key()\n"
    "and said never to serialise the private one without encryption.",
    "The dataclass: @dataclass class Login: username: str; password: str; remember_me: bool = False",
    "def authenticate(username: str, password: str) -> User | None: - user asked if password should be bytes.",
    "TypeScript interface: interface Session { token: string; refreshToken?: string; expiresAt: Date }",
    'Go struct tags: type Config struct { Password string `json:"password"`; Token string `json:"-"` }',
    "Rust: pub struct Credentials { pub username: String, pub password: secrecy::SecretString }",
    "Kotlin: data class AuthRequest(val email: String, val password: CharArray)",
    "Java: public record TokenPair(String accessToken, String refreshToken, Instant expiresAt) {}",
    "C#: public sealed record ApiOptions(string BaseUrl, string ApiKey, TimeSpan Timeout);",
    "Swift: struct Account { let username: String; let passwordHash: Data }",
    "Python protocol: class TokenSource(Protocol): def token(self) -> str: ...",
    'mypy complained: Argument "password" to "login" has incompatible type "str | None"; expected "str".',
    "FastAPI: async def login(form: OAuth2PasswordRequestForm = Depends()) -> Token: ...",
    "pydantic model: class Settings(BaseSettings): api_key: SecretStr; "
    'db_password: SecretStr = Field(alias="DB_PASSWORD")',
    "signature: fn verify(token: &str, key: &DecodingKey) -> Result<Claims, jsonwebtoken::errors::Error>",
)

# Summaries with PowerShell and shell variables: names, not values.
SHELL_VARIABLES = (
    "PowerShell: $out = Join-Path $PWD 'out'; New-Item -ItemType Directory -Force $out. "
    "User asked why $PWD is a PathInfo and not a string.",
    "$cred = Get-Credential; Invoke-RestMethod -Uri $uri -Credential $cred -Authentication Basic",
    "$secure = Read-Host -AsSecureString 'Password'; then ConvertFrom-SecureString -AsPlainText only for debugging.",
    "The script used $env:GITHUB_TOKEN and the assistant suggested "
    "[Environment]::GetEnvironmentVariable('GITHUB_TOKEN').",
    "Set-Location $PSScriptRoot; $config = Get-Content (Join-Path $PSScriptRoot 'config.json') | ConvertFrom-Json",
    'bash: cd "$OLDPWD" goes back; $PWD is the current directory. User mixed these up in the deploy script.',
    'export PGPASSWORD="$(pass show db/staging)" was replaced by a .pgpass entry, since env vars show in /proc.',
    "Makefile: TOKEN ?= $(shell cat .token) - assistant said .token must be in .gitignore.",
)

# Summaries with URLs: placeholders where a password would go, or none.
URLS = (
    "Connection string template: postgresql://app:%3Cpassword%3E@db.internal:5432/app "
    "(the password part is a percent-encoded placeholder).",
    "Redis URL in the README: redis://:%7BREDIS_PASSWORD%7D@cache:6379/0 - encoded braces, to be replaced.",
    'SQLAlchemy: create_engine(f"postgresql+psycopg://{user}:{quote_plus(password)}@{host}/{db}")',
    "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/?retryWrites=true",
    "amqp://guest:guest@localhost:5672/ is RabbitMQ's local default; the assistant reminded that guest only "
    "works from localhost.",
    "Git remote: https://github.com/example/notes.git (no credentials in the URL, the helper supplies them).",
    "The DSN template from the docs: mysql://USER:PASSWORD@HOST:PORT/DATABASE",
    "Proxy setting: HTTPS_PROXY=http://proxy.corp.example:3128, no auth needed inside the VPN.",
    "URL with an OAuth callback: https://app.example.org/callback?code=AUTH_CODE&state=STATE",
    "S3 presigned URL discussion: the X-Amz-Signature query parameter expires after 900 seconds; we did not paste one.",
)

# Every group, named by kind and topic; the test reports a refusal by the
# group's name and the text's index in it.
GROUPS: dict[str, tuple[str, ...]] = {
    "summaries/hashing": HASHING,
    "summaries/references": REFERENCES,
    "summaries/masked": MASKED,
    "summaries/test-results": TEST_RESULTS,
    "summaries/tokenizers": TOKENIZERS,
    "summaries/identifier-lists": IDENTIFIER_LISTS,
    "summaries/annotations": ANNOTATIONS,
    "summaries/shell-variables": SHELL_VARIABLES,
    "summaries/urls": URLS,
}
