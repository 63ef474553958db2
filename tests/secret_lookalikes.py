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
JWT_HEADER = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")

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
    "Assistant suggested the non-null assertion for the config loader: "
    "const apiKey: string = process.env.API_KEY!; and a startup check that throws when it is unset.",
    "User's compose file escapes the dollar sign so compose does not expand it: password: $$DB_PASSWORD "
    "is passed to the container's own entrypoint.",
    "We made the script fail fast when the variable is missing: password: ${DB_PASSWORD:?missing}.",
    "The Maven resource filter replaces tokens at build time, e.g. password: @@DB_PASSWORD@@ in "
    "application.yml; the CI job supplies the value.",
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
    "Nightly run, auth module only. pass: TestLogin2FA; pass: TestV2Login; the flaky one is TestSsoRedirect.",
    "After the fix: pass: test_oauth2_flow, pass: i18n_test2, pass: LoginTest. Nothing else changed.",
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
    "The batch file builds postgres://app:%DB%5FPASS%@db.internal/app, the cmd variable with its underscore encoded.",
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

# Summaries with placeholders where a credential would go.
PLACEHOLDERS = (
    "README step 3: export GITHUB_TOKEN=<your-token> and run make release. The user asked whether "
    "a fine-grained token works; yes, with contents: write.",
    'The OpenShift docs use --set kraken.kubeconfig.token.token="sha256~XXXX_PUT_YOUR_TOKEN_HERE_XXXX"; '
    "the assistant said to keep that placeholder in the sample values file.",
    ".env.example we committed:\nDB_HOST=localhost\nDB_USER=app\nDB_PASSWORD=changeme\n"
    "SECRET_KEY=replace-me\nSENTRY_DSN=",
    "docker-compose.yml uses interpolation: POSTGRES_PASSWORD: ${DB_PASS} and the .env next to it is "
    "git-ignored. The assistant explained ${DB_PASS:?must be set} to fail early.",
    'Terraform example: variable "api_token" { type = string, sensitive = true, default = "REPLACE_ME" } '
    "- we removed the default so a plan fails without it.",
    'User asked for a config template. We wrote:\n[database]\nuser = "app"\npassword = "<password>"\n'
    'host = "localhost"',
    'appsettings.Development.json has "ApiKey": "your-api-key-here" and the real one comes from user-secrets.',
    "The Slack sample: SLACK_BOT_TOKEN=" + SLACK_BOT + "your-bot-token and SLACK_SIGNING_SECRET=your-signing-secret.",
    "Stripe quickstart uses STRIPE_SECRET_KEY=" + STRIPE_LIVE[:3] + "test_... in the docs; we kept the dots.",
    "kubectl create secret generic app --from-literal=password='<PASSWORD>' --dry-run=client -o yaml "
    "is what we put in the runbook, with the placeholder.",
    "GitHub Actions sample for the docs:\n- run: ./deploy.sh\n  env:\n    API_TOKEN: ${{ secrets.API_TOKEN }}\n"
    "    REGION: eu-west-1",
    'User\'s nginx snippet: proxy_set_header Authorization "Bearer $upstream_token"; where $upstream_token '
    "comes from a map block. No literal token.",
    "Placeholders we allow in docs: <token>, {token}, ${TOKEN}, YOUR_TOKEN_HERE, xxxxxxxx. Anything else is reviewed.",
    'Sample curl: curl -H "Authorization: Bearer $TOKEN" https://api.example.org/v1/me',
    'In the Helm chart values.yaml: auth:\n  password: ""\n  existingSecret: ""\n'
    "The assistant said an empty password makes the chart generate one.",
    'TOML for the bot:\n[discord]\ntoken = "PUT-YOUR-DISCORD-TOKEN-HERE"\nprefix = "!"',
    'The Go example reads flag.String("token", "", "API token (or set API_TOKEN)"); the default is empty.',
    "For the workshop the local database runs with POSTGRES_HOST_AUTH_METHOD=trust inside docker-compose; "
    "the assistant added a check that refuses trust outside it.",
    "WordPress wp-config sample: define( 'DB_PASSWORD', 'password_here' ); - straight from wp-config-sample.php.",
    "SMTP settings template: EMAIL_HOST_USER=apikey, EMAIL_HOST_PASSWORD=<sendgrid-api-key>.",
    "Sample .npmrc in the docs: //registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "pip.conf example: index-url = https://__token__:<pypi-token>@upload.pypi.org/legacy/ - placeholder only.",
    'The Rust example config: api_key = "xxxxxxxxxxxxxxxxxxxxxxxx" # replace with your key',
    "Mailgun docs: api_key = 'key-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX'. We left it as the X placeholder.",
    "Dockerfile: ARG NPM_TOKEN then RUN --mount=type=secret,id=npm,target=/root/.npmrc npm ci; "
    "build with --secret id=npm,src=$HOME/.npmrc.",
)

# Summaries with values cut off: what is left is not a credential.
CUT_OFF = (
    "User started pasting the header: Authorization: Bearer eyJhbGciOi... and stopped, as the assistant asked.",
    "The error showed key=" + AWS_ID + "... truncated by the logger at 8 characters.",
    "token=abc... is all the screenshot shows; the user wanted to know which service issued it.",
    "connection string starts with Server=tcp:sql-prod.database.windows.net,1433;User ID=app;Password=... "
    "and the rest was cut before pasting.",
    "The webhook URL looked like https://hooks.slack.com/services/T000/B000/... - cut, so nothing to rotate.",
    "secret_key: '...' (user elided it) and the assistant explained Flask's SECRET_KEY length.",
    "Log excerpt: refresh_token=\u2026 expires_in=3600 token_type=Bearer",
    "The CLI printed api key: " + OPENAI + "ant-\u2026 and the user asked whether the prefix tells the workspace.",
)

# Summaries with digests, commit IDs, UUIDs and asset names: identifiers.
IDENTIFIERS = (
    "The favicon 404s: /static/favicon.ico-" + ASSET_HASH + ".png is requested but the manifest has a "
    "different hash. The hex part is just the content hash from the bundler.",
    "Fixed in commit "
    + COMMIT
    + " (fix the login redirect loop); reverted the cookie change in "
    + OTHER_COMMIT[:12]
    + ".",
    "git bisect pointed at " + COMMIT[:7] + "; the assistant showed git show --stat " + COMMIT[:7] + ".",
    "Release checksum: sha256 " + TARBALL_SHA256 + "  notes-2.4.0.tar.gz. User asked how to verify it with "
    "sha256sum -c.",
    "Lock file entry: projection-0.1.0-py3-none-any.whl --hash=sha256:" + WHEEL_SHA256,
    "Pinned the image by digest: image: registry.example.org/app@sha256:" + IMAGE_DIGEST,
    "Order " + ORDER_ID + " failed at the payment step; the tenant is " + TENANT_ID + ".",
    "request_id: " + REQUEST_ID + " - the assistant found it in the gateway logs, 502 after 30 s.",
    "Webpack output: main." + BUNDLE_HASH + ".js and the CDN caches it for a year because the hash changes.",
    'The SRI attribute: integrity="sha256-'
    + base64.b64encode(hashlib.sha256(b"app.css").digest()).decode()
    + '" on the stylesheet link.',
    "Terraform state lists aws_kms_key.main with key_id = " + TENANT_ID + " (an ID, not key material).",
    'Azure: tenant_id = "' + TENANT_ID + '", client_id = "' + ORDER_ID + '"; the secret comes from the '
    "pipeline's service connection.",
    "Docker build cache: layer sha256:" + IMAGE_DIGEST[:12] + " reused; the assistant explained why COPY "
    "order matters.",
    "Go module sum: example.org/lib v1.4.2 h1:" + base64.b64encode(hashlib.sha256(b"lib").digest()).decode(),
    "The migration id is " + COMMIT[:14] + "_add_password_reset_tokens, generated by the ORM.",
    "GPG key fingerprint for the release: " + COMMIT.upper() + ". User asked how to check it on keys.openpgp.org.",
    "npm integrity: sha512-"
    + base64.b64encode(hashlib.sha512(b"left-pad").digest()).decode()
    + " in package-lock.json.",
    "UUID v4 for the device: device_id = " + str(uuid.uuid5(uuid.NAMESPACE_OID, "device-7")) + ".",
    "We decoded the test header: base64 " + HELLO_B64 + ' is just "hello, reviewer".',
    "Kubernetes ConfigMap binaryData: settings.yaml: " + CONFIG_B64 + " (log level and workers, nothing secret).",
    'The assistant explained that Basic auth is base64 of user:pass, e.g. base64("username:password") = '
    + USER_COLON_B64
    + ", which is why it is not encryption.",
    'ETag: "' + ASSET_HASH + '" comes back on every GET; the user wanted conditional requests.',
)

# Summaries that discuss tokens and keys by format, pasting none.
FORMATS = (
    "User asked what is in a JWT. Assistant: three base64url parts, header.payload.signature; the header "
    "has alg and typ, the payload sub, exp, iat. We did not paste a real one.",
    "JWT validation checklist: verify the signature, check exp and nbf, pin alg to RS256, check aud and iss.",
    "The assistant explained that a PEM file starts with "
    + BEGIN
    + " "
    + PRIVATE_KEY
    + "----- and ends with "
    + END
    + " "
    + PRIVATE_KEY
    + "-----, and that the user should never paste what is in between.",
    "openssl genpkey -algorithm ed25519 -out key.pem then openssl pkey -in key.pem -pubout -out pub.pem; "
    "we only shared pub.pem.",
    "Certificate chain order: leaf, intermediate, root; the " + BEGIN + " CERTIFICATE----- blocks are public.",
    'ssh-keygen -t ed25519 -C "work laptop" -f ~/.ssh/id_ed25519_work; the .pub file goes to GitHub.',
    "GitHub token formats: classic PATs start with " + GITHUB + ", fine-grained with github_pat_, "
    "OAuth with gho_. The assistant said secret scanning knows all of them.",
    "AWS access key IDs begin with " + AWS_ID + " (long-term) or ASIA (temporary, from STS).",
    "Hugging Face tokens start with " + HUGGING_FACE + "; we use a read-only one in CI for model downloads.",
    "Discussed refresh token rotation: each refresh returns a new refresh token and invalidates the old one.",
    "PASETO vs JWT: v4.public uses Ed25519; no alg header to confuse. The user liked that.",
    "JWKS endpoint: https://login.example.org/.well-known/jwks.json; keys are selected by kid.",
    "age encryption: age -r age1... (public recipient) to encrypt; identity file stays in ~/.config/sops/age/keys.txt.",
    "Explained HMAC-signed webhooks: the X-Hub-Signature-256 header is sha256=<hex HMAC of the body>.",
)

# Summaries of configuration with the secret keys left empty.
EMPTY_VALUES = (
    "We trimmed the .env to the keys the app reads:\nGITHUB_API_KEY=\nDYNATRACE_API_KEY=\nLOG_LEVEL=info",
    "application.properties:\nsnowflake.password=\njdbc.snowflake.url=\nThe values come from the vault at start.",
    'config.yaml:\nsmtp:\n  host: smtp.example.org\n  user: ""\n  password: ""\nEmpty means no auth on the relay.',
    'settings.json has "apiKey": "" and the extension prompts for it on first use.',
    'TOML: [auth]\ntoken = ""\nrefresh_token = ""\nThe CLI fills both after login.',
    "Kubernetes Secret stub we keep in git:\napiVersion: v1\nkind: Secret\nmetadata:\n  name: app\n"
    "type: Opaque\nstringData: {}\nThe real one is created by External Secrets.",
    "The INI file: [credentials]\nusername =\npassword =\nUser asked why configparser returns '' for both.",
    'Terraform tfvars template: db_password = "" # set with TF_VAR_db_password',
    "The user's .netrc template has machine api.example.org login deploy and no password line; "
    "curl --netrc then prompts.",
    'sumologic_access_id = "" and sumologic_access_key = "" in the sample tfvars, to be filled per workspace.',
)

# Summaries in other languages than English.
OTHER_LANGUAGES = (
    "Der Nutzer fragte, wie Passwörter gespeichert werden. Passwort: mit Argon2id gehasht, Salt pro Nutzer. "
    "Der Assistent empfahl, alte MD5-Hashes beim nächsten Login zu ersetzen.",
    "Wir haben beschlossen, das Token nicht im Repository zu speichern, sondern in der CI als geheime Variable.",
    "Zugangsdaten: AWS_PROFILE=prod-admin für das Deployment, sonst das Profil dev.",
    "Le mot de passe est haché avec bcrypt (coût 12). L'assistant a expliqué pourquoi le sel est inclus dans le hash.",
    "L'utilisateur a demandé où mettre la clé API : dans une variable d'environnement, OPENAI_API_KEY, "
    "jamais dans le code.",
    "Résultats des tests - réussi : LoginFlowV2, échoué : CheckoutV3.",
    "El usuario preguntó cómo rotar el token de GitHub. El asistente sugirió un token de grano fino "
    "con caducidad de 90 días.",
    "Contraseña: cifrada con Argon2id; la clave de cifrado del disco está en el KMS, no en el servidor.",
    "Configuración: DB_PASSWORD=${DB_PASSWORD} en docker-compose y el valor real en el archivo .env ignorado por git.",
    "ユーザーはパスワードの保存方法を質問した。パスワードは Argon2id でハッシュ化し、ソルトはユーザーごと。",
    "トークンは環境変数 GITHUB_TOKEN から読み込む。リポジトリには保存しない、とアシスタントが説明した。",
    "APIキーは ****1234 とマスクされて表示される。ダッシュボードでは末尾4文字だけが見える。",
    "O usuário perguntou sobre a senha do banco: ela fica no Secrets Manager, em prod/app/db.",
    "De gebruiker vroeg waar het wachtwoord staat: in de kluis van het team, niet in de repository.",
    "Użytkownik zapytał o hasło do bazy: jest w zmiennej środowiskowej DB_PASSWORD ustawianej przez CI.",
    "用户问密码怎么存。助手建议用 bcrypt 哈希，成本因子 12，令牌放在环境变量里。",
    # A word after the key ("new", "changed"), then "of", "to" or "is", around no secret.
    "Het wachtwoord is gewijzigd naar aanleiding van het lek; het nieuwe staat in de kluis van het team.",
    "La contraseña nueva del servidor de correo es la que generó Bitwarden, en la bóveda compartida.",
    "A senha foi alterada para atender à política: 16 caracteres, trocada a cada 90 dias.",
    "Das Passwort wurde geändert: siehe Tresor, Eintrag prod/db.",
    "Пароль изменён на более длинный, новый лежит в Vault по пути secret/app/db.",
    "The password set to expire after 90 days is the admin's; the new one is in the vault.",
)

# Summaries of everyday sessions whose snippets touch auth and config.
SESSIONS = (
    "User asked how to add basic auth to an nginx location. Assistant gave:\n"
    'location /admin/ {\n  auth_basic "Admin";\n  auth_basic_user_file /etc/nginx/.htpasswd;\n}\n'
    "and htpasswd -B -c /etc/nginx/.htpasswd admin to create the file (it prompts for the password).",
    "We wrote a GitHub Actions workflow with OIDC:\npermissions:\n  id-token: write\n  contents: read\n"
    "steps:\n  - uses: aws-actions/configure-aws-credentials@v4\n    with:\n"
    "      role-to-assume: arn:aws:iam::123456789012:role/gha-deploy\n      aws-region: eu-central-1",
    "SQL for the password reset table:\nCREATE TABLE password_reset_tokens (\n  id bigserial PRIMARY KEY,\n"
    "  user_id bigint NOT NULL REFERENCES users(id),\n  token_hash bytea NOT NULL,\n"
    "  expires_at timestamptz NOT NULL\n);\nWe store only the hash of the token.",
    "Postgres: ALTER ROLE app PASSWORD NULL; then switched to IAM auth. The user asked whether "
    "password_encryption = scram-sha-256 still matters; it does for the other roles.",
    "Dockerfile review: the assistant flagged ENV API_KEY=... as a bad idea because ENV lands in the image "
    "history; we moved to a build secret and a runtime env var.",
    "Kubernetes: kubectl create secret tls web-tls --cert=tls.crt --key=tls.key; the files stay on the "
    "admin's machine, the cluster has the Secret.",
    "Rust axum middleware: we extract the bearer with TypedHeader<Authorization<Bearer>> and compare "
    "token.token() with constant_time_eq against the configured value from the environment.",
    "Python requests: session.auth = (user, password) where both come from keyring; the assistant "
    "showed HTTPBasicAuth and HTTPDigestAuth.",
    "Node/Express: app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }))",
    'Go: http.SetCookie(w, &http.Cookie{Name: "session", Value: id, HttpOnly: true, Secure: true, '
    "SameSite: http.SameSiteLaxMode})",
    "We talked about CSRF: Django's csrftoken cookie and the X-CSRFToken header; the token changes on login.",
    'Terraform: resource "random_password" "db" { length = 32, special = true } and the result goes '
    "straight into aws_secretsmanager_secret_version; nobody sees it.",
    "GitHub Actions: the user asked why ${{ secrets.DEPLOY_KEY }} is empty in a fork PR. Assistant: secrets "
    "are not passed to workflows from forks; use pull_request_target carefully or skip.",
    'TOML for Cargo: [registries.internal]\nindex = "sparse+https://crates.example.org/index/"\n'
    "and the token lives in ~/.cargo/credentials.toml, written by cargo login.",
    "YAML anchors for the CI: &default_env with API_URL and TIMEOUT; the token is a protected CI/CD variable.",
    "User wanted a password generator. Assistant: secrets.token_urlsafe(24) for tokens, and for passwords "
    "''.join(secrets.choice(alphabet) for _ in range(20)).",
    "We reviewed the login rate limit: 5 attempts per 15 minutes per account and per IP, then a captcha.",
    "Assistant explained OAuth PKCE: code_verifier is random, code_challenge = BASE64URL(SHA256(verifier)), "
    "method S256.",
    "The user asked whether to put the API key in the Authorization header or a query parameter. "
    "Header, because URLs end up in logs.",
    "SSH agent forwarding vs ProxyJump: the assistant recommended ProxyJump bastion so the key never leaves "
    "the laptop.",
    "Session summary: fixed the token refresh race (two tabs refreshing at once) with a mutex around refresh().",
    "We wrote a pre-commit hook that runs gitleaks protect --staged; the user asked about false positives "
    "in test fixtures and we added a .gitleaksignore entry by fingerprint.",
    "Redis ACL: ACL SETUSER worker on >… ~jobs:* +@list; the assistant explained the > prefix adds a "
    "password, which we set from the secret store, not here.",
    "MongoDB: the connection uses authSource=admin and authMechanism=SCRAM-SHA-256; credentials from "
    "the MONGO_USER and MONGO_PASS variables.",
    "Keycloak client: Client authentication ON, credentials tab shows the client secret; we copied it "
    "into the vault directly and regenerated after the screen share.",
    "User asked what passkeys are. Assistant: WebAuthn credentials bound to the origin; the server stores "
    "only the public key and a credential id.",
    "The Flask app had app.secret_key = os.urandom(24) at import, which logs everyone out on restart. "
    "We load it from the environment instead.",
    "Elasticsearch: xpack.security.enabled: true and the elastic user's password is reset with "
    "bin/elasticsearch-reset-password -u elastic; output goes to the terminal only.",
    "Nginx: ssl_certificate /etc/letsencrypt/live/example.org/fullchain.pem; "
    "ssl_certificate_key /etc/letsencrypt/live/example.org/privkey.pem;",
    "The user asked about .gitattributes for secrets; the assistant suggested git-crypt or sops, and "
    "sops with age keys was chosen.",
    "sops file header: sops:\n  age:\n    - recipient: age1...\n  lastmodified: '2026-11-30T10:00:00Z'\n"
    "  mac: ENC[AES256_GCM,data:...,type:str]",
    "Vault dev server prints a root token at start; the assistant said -dev-root-token-id=root is for "
    "local experiments only.",
    "Next.js: NEXT_PUBLIC_ variables end up in the browser bundle, so the API key must not be NEXT_PUBLIC_API_KEY.",
    "Vite: import.meta.env.VITE_API_URL is public; secrets belong in the server, the assistant said.",
    "Mobile app: store the refresh token in Keychain (iOS) and EncryptedSharedPreferences (Android).",
    "We decided: access tokens live 15 minutes, refresh tokens 30 days with rotation, and logout "
    "revokes the refresh token family.",
    "Summary: the password reset email link carries a one-time token; we store sha256(token) and compare "
    "with hmac.compare_digest.",
    "The assistant explained key rotation for JWT signing: publish the new key in JWKS, sign with it after "
    "a day, drop the old kid after the longest token lifetime.",
    "Ansible playbook:\n- name: create db user\n  community.postgresql.postgresql_user:\n    name: app\n"
    '    password: "{{ app_db_password }}"\n  no_log: true',
    "systemd: LoadCredential=db-password:/etc/app/db-password and the service reads "
    "$CREDENTIALS_DIRECTORY/db-password.",
)

# Summaries kept as labelled notes ("Key: what was decided"), the form in
# which a label that names a secret is followed by a description.
LABELLED_NOTES = (
    "Auth: OAuth2 with PKCE for the SPA, client credentials for the cron jobs. Token: JWT (RS256), "
    "15 minutes. Refresh: rotating, 30 days.",
    "Secret: stored in Vault under kv/app/prod, read by the agent sidecar. Owner: platform team.",
    "Password reset: email link, single use, valid 30 minutes. Token: 32 random bytes, stored hashed.",
    "Credentials: IAM role github-deploy via OIDC; no long-lived keys anywhere in CI.",
    "API key: one per tenant, rotated quarterly, scoped to read:reports. Storage: SHA-256 of the key.",
    "Key: ed25519, only the public half shared with the ops team. Passphrase: from the password manager.",
    "Passphrase: diceware, six words, as the assistant suggested for the disk encryption.",
    "Tokens: personal access tokens are gone; fine-grained tokens with 90-day expiry instead.",
    "Session: server-side, Redis, 8 h idle timeout. Cookie: HttpOnly, Secure, SameSite=Lax.",
    "Secrets: sops + age in the repo, decrypted in CI with the age identity from the CI secret store.",
    "Passwords: never logged, never emailed; reset only. Hashing: argon2id (m=64MiB, t=3, p=4).",
    "Auth header: Authorization: Bearer <access token>; the gateway validates it against the JWKS.",
    "Key rotation: monthly for signing keys, yearly for TLS (Let's Encrypt renews every 60 days).",
    "Credential: mTLS client certificate issued by the internal CA, 24 h lifetime, from cert-manager.",
    "Token: none needed for the public endpoints; rate limit 60/min per IP instead.",
    "Secret key: Django's SECRET_KEY comes from the environment; rotation via SECRET_KEY_FALLBACKS.",
    "Authentication: SAML with the corporate IdP; SCIM for provisioning. MFA: WebAuthn preferred, TOTP fallback.",
    "Password: set by the user on first login; minimum 12 characters; breached-list check through k-anonymity API.",
    "Private key: lives in the HSM, never exported. Signing: via PKCS#11 from the release job.",
    "Access token lifetime: 900 s. Refresh token lifetime: 2592000 s. Clock skew allowed: 60 s.",
    "Secrets rotation: automated with the Secrets Manager rotation Lambda, every 30 days.",
    "Token storage on the web client: memory only; refresh via an HttpOnly cookie.",
    "DB password: managed by RDS (manage_master_user_password = true), so nobody knows it.",
    "Keys: KMS customer-managed key alias/app-data, automatic rotation on.",
    "Auth for the metrics endpoint: none inside the cluster; NetworkPolicy restricts who can reach it.",
    "Secret scanning: push protection on; the user asked how to bypass for a test fixture (do not).",
    "Token: str - the type in the SDK's signature, the user wanted to know whether bytes are accepted.",
    "Credentials file: ~/.aws/credentials has only [default] with sso_session = corp; no keys.",
    "Password - Reset flow: the user wants the link to expire sooner. Token - based auth stays for the API.",
    "The admin password is now rotated weekly by the vault agent; the password is set to expire in 90 days.",
    "API key -> see the runbook, section 4; the key -- which we rotated in March -- lives in SSM.",
    "mysql -h db -P 3306 -u app -p reads the password from ~/.my.cnf; requirepass is set in redis.conf.",
)

# Words, names and numbers right after a key and a space, as people write
# them ("token TokenV2 is a dataclass", "Token HS256 is symmetric"):
# written by a session that did not write the gate, to measure its
# reading of a value after a key and a space alone.
WORDS_AFTER_A_KEY = (
    "I swapped the password PBKDF2HMAC call for scrypt since it's memory-hard.",
    "password PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=600_000)",
    "Don't store the password SHA256 digest directly, there's no salt and it's way too fast to brute force.",
    "The token HS256 vs RS256 choice matters here because the frontend should never hold the signing key.",
    "Token HS256 is symmetric, so every service that verifies can also mint.",
    "so I set the token V2 flag in settings.py and now the old clients get 401s",
    "token TokenV2 is a dataclass with `value`, `expires_at` and `scopes`.",
    "The `Token` model was renamed; the Token TokenV2 migration is in 0042_tokenv2.py.",
    "key X25519PrivateKey.generate() gives you a fresh private key; call .public_key() for the peer half.",
    "For ECDH use the key X25519PrivateKey class rather than the generic EllipticCurvePrivateKey.",
    "I'm using OAuth2Session from requests-oauthlib; the token OAuth2Token it returns is basically a dict.",
    "auth OAuth2Session needs the redirect_uri to match exactly what's registered in the console.",
    "PASSWORD_HASHERS should list the password Argon2PasswordHasher first, then PBKDF2PasswordHasher as a fallback.",
    "The key Ed25519PublicKey is what goes in the JWKS, never the private one.",
    "token JWTBearer2 is just my subclass of HTTPBearer that also checks the `aud` claim.",
    "The auth AuthProvider2 interface was added so we could plug in Keycloak alongside Cognito.",
    "key HMAC-SHA256 is what Stripe uses for the webhook signature header.",
    "PSK TLS_PSK_WITH_AES_128_GCM_SHA256 is only relevant if you're doing TLS-PSK on constrained devices.",
    "Password BCryptPasswordEncoder(12) gives you cost factor 12, which is ~250ms on our pods.",
    "token ERC20Permit lets users approve with a signature instead of a separate tx.",
    "token ERC721Enumerable adds tokenOfOwnerByIndex but it costs a lot of gas on mint.",
    "Token IERC20(tokenAddress).transfer(to, amount) returns a bool you should check, or just use SafeERC20.",
    "So the token USDC0 thing on the testnet is just a mock ERC20 I deployed yesterday.",
    "token v2.3.1 of the SDK added automatic refresh, so you can drop the manual retry loop.",
    "PyJWT 2.0 made `algorithms` required on decode, so the token 2.8.0 upgrade should be painless from 2.x.",
    "ApiKey 1.0.0-rc1 was the first release of the package with scoped keys; we're on 1.2 now.",
    "auth v0.9.2-beta broke the callback URL handling, pin to 0.9.1 for now.",
    "password 4.1.2 - no wait, I mean bcrypt 4.1.2, the one that dropped the __about__ attribute.",
    'passlib 1.7.4 + bcrypt 4.x prints "(trapped) error reading bcrypt version", it\'s harmless.',
    "Token 2.1 of OAuth (still a draft) removes the implicit grant entirely.",
    "secret v1 vs v2 in Vault: kv-v2 paths need /data/ in the API path.",
    "auth-token 1.0.0-rc1 isn't published to crates.io yet, use the git dependency.",
    "auth Auth0 handles the social logins, we just validate their JWTs.",
    "token user_id42 - no, that's the user id in the fixture, not a token.",
    "The token getToken2() helper is the one that handles refresh; getToken() is legacy.",
    "call getToken2 instead of reading the token refresh_token_v2 column directly",
    "token refresh_token_v2 is the new column name after the migration.",
    "auth AUTH_HEADER2 is the constant for the second header name.",
    "Token tokenCache2 is a Map<string, CachedToken> keyed by tenant id.",
    "The key kid2 in the JWKS is the rotated one; kid1 gets removed next week.",
    "auth authMiddleware2 wraps the routes under /api/v2.",
    "credentials creds_v3 is the struct we deserialize ~/.config/app/creds.json into.",
    "password isPasswordValid2() was a temp copy while refactoring, delete it.",
    "key ~/.ssh/id_ed25519 is the default path, pass -i if yours is elsewhere.",
    "The deploy key ~/.ssh/deploy_ed25519 needs chmod 600 or ssh ignores it.",
    "chpasswd -e reads already-encrypted hashes, e.g. from `openssl passwd -6`.",
    "Default admin password ChangeMe123 is documented in the README and you're forced to change it on first login.",
    "Password hunter2 jokes aside, please don't paste real credentials into the chat.",
    "Token abc123 is what the mock server accepts, it's hardcoded in the fixture.",
    "Use password grant only for first-party legacy clients, it's gone in OAuth 2.1.",
    "api key sk-...Xy9Z is the one being rate limited, the dashboard only shows the last four.",
    "token ****1234 is the last four digits the console shows.",
    "the key F5 toggles the debugger, Shift+F5 stops it.",
    "pass TestLogin2FA and TestLogout but fail TestRefresh - the first two are just flaky.",
    "auth 2FA via TOTP is optional for now, mandatory next quarter.",
    "token test_refresh_token_expired2 fails, run pytest -k test_refresh_token_expired2 to repro.",
    "The key test_key_rotation_v3 was skipped because of the marker.",
    "token a1b2c3d commit - that's the commit that introduced the refresh bug.",
    "password #1234 - the issue about reset emails being sent twice.",
    "Token CVE-2022-29217 is the PyJWT algorithm confusion bug, fixed in 2.4.0.",
    "auth CVE-2024-3094 wasn't an auth bug as such, it was the xz backdoor reaching sshd.",
    "key CVE-2008-0166 - the Debian OpenSSL weak key bug, still shows up in audits.",
    "See token #5821 in the tracker - the refresh race condition.",
    "Fixes password #88 and #91 (both reset-email bugs).",
    "auth 8443 is the mTLS port, 8080 is plain HTTP for health checks only.",
    "token 3000 - sorry, I mean the token service listens on 3000 and the API on 8000.",
    "pass 5432 through the tunnel: ssh -L 5432:db:5432 bastion",
    "Keycloak auth 8180 in our compose file since 8080 was taken.",
    "token claude-3-5-sonnet context is 200k, so chunking isn't needed for most files.",
    "api key gpt-4o-mini access is included in tier 1.",
    "token o1-mini reasoning tokens are billed as output.",
    "token llama-3.1-8b-instant limit on Groq is 30 RPM on the free tier.",
    "token cl100k_base is the encoding for gpt-4 and gpt-3.5-turbo.",
    "Token r50k_base is the GPT-2/GPT-3 encoding.",
    "Enter passphrase for key '/home/me/.ssh/id_ed25519':",
    "Password Argon2id parameters: m=19456 KiB, t=2, p=1 (the OWASP minimum).",
    "Token HS512 needs a key of at least 64 bytes or PyJWT warns.",
    "ApiKey ApiKeyV2 model adds a `prefix` column and a `last_used_at` timestamp.",
    "auth OIDCAuthBackend2 is my fork of mozilla-django-oidc's backend with group mapping.",
    "secret SecretKey256 is just a newtype wrapper around [u8; 32] in our Rust crate.",
    "pwd PwdResetForm2 is the new form class, the template still references the old one.",
    "key Secp256k1 is the curve, the library is coincurve or the pure-python ecdsa package.",
    "password argon2-cffi 23.1.0 wheels are available for musl now, so alpine builds are fine.",
    "ApiKey djangorestframework-api-key 3.0.0 stores a hashed key plus a prefix.",
    "Token oauthlib 3.2.2 raises InsecureTransportError on http:// unless OAUTHLIB_INSECURE_TRANSPORT=1.",
    "auth next-auth v5 (Auth.js) renamed NEXTAUTH_SECRET to AUTH_SECRET.",
    'credentials boto3.Session(profile_name="prod").get_credentials() returns a frozen-able object.',
    "key Fn+F2 on the laptop keyboard is rename in Explorer.",
    "Token 7 in the tokenizer output is the BOS marker, not a real word.",
    "the token 50256 is <|endoftext|> in GPT-2's vocab.",
    "key 42 in the dict was the answer, obviously.",
    "pass 2 of the migration backfills the token_hash column.",
    "token 1/3 of the budget goes to retrieved context, the rest to the conversation.",
    "token 0 is reserved for padding in our vocab.",
    "token user42 is just the username, the actual token comes from the login endpoint.",
    "api key secrets.token_urlsafe(32) is how I'd generate them.",
    "secret os.urandom(32).hex() for the session key, generated at deploy time.",
    "key a1b2 in the i18n file is a leftover from the old translation tool.",
    "PSK 802.11r fast transition works fine with WPA2-PSK on these APs.",
    "passwd TestUser01 - that's the username of the test account we reset.",
    "my token TokenV2 refactor is almost done, just the migrations left.",
    "Use password Argon2id hashing for new accounts; old ones stay bcrypt until next login.",
    "That token " + JWT_HEADER + ' is only the header segment: {"alg":"HS256","typ":"JWT"}.',
)

# Summaries an outside review of the gate wrote that hold no credential but
# were refused when a key and a space alone were first read as an
# assignment: names of models, contracts, classes and standards, package
# versions, schema attributes and release placeholders after a key.
NAMES_AFTER_A_KEY = (
    "We benchmarked throughput per token Qwen2.5-Coder-7B vs DeepSeek-Coder-V2-Lite on the A100; Qwen was "
    "1.4x faster at batch 8.",
    "Solidity: deploy token MockERC20 with 18 decimals in the Foundry fixture, mint 1e24 to alice, then "
    "approve the router.",
    "Explained the Compound III market: users supply USDC and receive the base token cUSDCv3; collateral "
    "such as WETH does not earn interest.",
    "Assistant compared auth OAuth2+PKCE for the SPA against the BFF pattern and recommended the BFF: "
    "tokens stay server-side, the browser only holds an HttpOnly cookie.",
    "Decision log: auth SAML2+OIDC both stay enabled until the last customer migrates off SAML.",
    "Upgraded auth next-auth@4.24.5 to next-auth@5.0.0-beta.19 (Auth.js). `getServerSession` is now "
    "`auth()`; the adapter package moved to `@auth/prisma-adapter`.",
    "The JWT library bump: token jsonwebtoken@9.0.2 drops support for unsigned tokens unless `algorithms: "
    "['none']` is passed explicitly.",
    "Dependabot PR: bump password bcrypt@5.1.1 to 5.1.1-rc? No, it was the bcryptjs fork. We pinned "
    "bcrypt@5.1.1 because the native build works on Node 20.",
    "package.json diff from the session: auth ^5.0.0-beta.4 was too loose, pinned to the exact beta.",
    "Assistant reviewed NIST guidance: the password SP800-63b rules drop composition requirements and "
    "forced rotation, and require checking against breached lists.",
    "Changelog: reverted password PR#512 because it broke SSO logins for users with a `+` in their e-mail.",
    "Converted the private key PKCS#1 to PKCS#8 with `openssl pkcs8 -topk8 -nocrypt -in key.pem -out "
    "key8.pem` because the Java loader only reads PKCS#8.",
    "Notes: token ERC4626Vault wraps the strategy; `convertToShares` rounds down, `previewMint` rounds up.",
    "Password KeePassXC2 database? No, KeePassXC uses KDBX 4; the user's file was KDBX 3.1 and needed "
    "re-saving to get Argon2.",
    "Rotation job log:\n```\n2024-06-01T03:00:02Z INFO rotate: token TokenV2 issued for svc-ingest "
    "(expires in 24h)\n2024-06-01T03:00:02Z INFO rotate: password Policy2024Q2 applied to 14 accounts\n```",
    "User question: why does `git push` ask for a password? Answer: GitHub dropped password auth in 2021; "
    "the password GitHubPAT2 field in their old script should be a personal access token from the "
    "credential helper instead.",
    'web.config transform:\n```xml\n<connectionStrings>\n  <add name="Main" '
    'connectionString="Server=sql01;Database=App;User Id=app;Password=__DB_PASSWORD__;" '
    'xdt:Transform="SetAttributes" xdt:Locator="Match(name)"/>\n</connectionStrings>\n```',
    "Apache Camel route: `<to "
    'uri="sftp://deploy@files.internal/in?password=RAW({{sftp.password}})&amp;binary=true"/>`.',
    'XML schema: `<xs:element name="password" type="xs:string" minOccurs="0"/>` and `<xs:element '
    'name="apiKey" type="tns:ApiKeyV2"/>`.',
    "LaTeX figure grid: set `\\pw` to 0.48\\linewidth so two subfigures fit; pw 0.32 for three columns.",
    "TLS-PSK test with OpenSSL: `openssl s_server -psk_identity Client_1 -psk_hint lab -nocert` on the "
    "server; the client reads the key from `$PSK_HEX`.",
    "The eval harness logs each token Phi-3-mini-4k-instruct generates; the user wanted a histogram of logprobs.",
    "We fine-tuned with LoRA on token Mixtral-8x7B outputs as distillation targets; the student is Mistral-7B.",
    "The secret Llama-3-70B-Instruct jailbreak prompt the user found online was not reproduced; the "
    "assistant explained why it only works on the base model.",
    "Closed duplicates: token GH#4521 and token GH#4530 were the same refresh race.",
    "The token ERC1155Holder base is needed so the vault contract can receive batch transfers.",
    "Auth header parsing bug: auth Bearer%20xyz arrived URL-encoded from the proxy; fixed by decoding "
    "before splitting.",
    "User asked about Shamir: secret SSS-3of5 split with `vault operator init -key-shares=5 -key-threshold=3`.",
    "Spring Security: token JwtAuthenticationConverter2 was our subclass; replaced by a `Converter<Jwt, "
    "AbstractAuthenticationToken>` bean.",
)

# Passages quoted as they are from CPython 3.11.7's standard library (Lib/).
STANDARD_LIBRARY = (
    # Lib/getpass.py: the module docstring.
    '"""Utilities to get a password and/or the current user name.\n'
    "\n"
    "getpass(prompt[, stream]) - Prompt for a password, with echo turned off.\n"
    "getuser() - Get the user name from the environment or password database.\n"
    "\n"
    "GetPassWarning - This UserWarning is issued when getpass() cannot prevent\n"
    "                 echoing of the password contents while reading.",
    # Lib/getpass.py: unix_getpass's docstring.
    "def unix_getpass(prompt='Password: ', stream=None):\n"
    '    """Prompt for a password, with echo turned off.\n'
    "\n"
    "    Args:\n"
    "      prompt: Written on stream to ask for the input.  Default: 'Password: '\n"
    "      stream: A writable file object to display the prompt.  Defaults to\n"
    "              the tty.  If no tty is available defaults to sys.stderr.\n"
    "    Returns:\n"
    "      The seKr3t input.\n"
    "    Raises:\n"
    "      EOFError: If our input tty or stdin was closed.\n"
    "      GetPassWarning: When we were unable to turn echo off on the input.",
    # Lib/getpass.py: fallback_getpass.
    "def fallback_getpass(prompt='Password: ', stream=None):\n"
    '    warnings.warn("Can not control echo on the terminal.", GetPassWarning,\n'
    "                  stacklevel=2)\n"
    "    if not stream:\n"
    "        stream = sys.stderr\n"
    '    print("Warning: Password input may be echoed.", file=stream)',
    # Lib/getpass.py: getuser's docstring.
    '    """Get the username from the environment or password database.\n'
    "\n"
    "    First try various environment variables, then the password\n"
    "    database.  This works on Windows as long as USERNAME is set.",
    # Lib/netrc.py: netrc._parse.
    "            # We're looking at start of an entry for a named machine or default.\n"
    "            login = account = password = ''\n"
    "            self.hosts[entryname] = {}\n"
    "            while 1:\n"
    "                prev_lineno = lexer.lineno\n"
    "                tt = lexer.get_token()\n"
    "                if tt.startswith('#'):\n"
    "                    if lexer.lineno == prev_lineno:\n"
    "                        lexer.instream.readline()\n"
    "                    continue\n"
    "                if tt in {'', 'machine', 'default', 'macdef'}:\n"
    "                    self.hosts[entryname] = (login, account, password)\n"
    "                    lexer.push_token(tt)\n"
    "                    break\n"
    "                elif tt == 'login' or tt == 'user':\n"
    "                    login = lexer.get_token()\n"
    "                elif tt == 'account':\n"
    "                    account = lexer.get_token()\n"
    "                elif tt == 'password':\n"
    "                    password = lexer.get_token()\n"
    "                else:\n"
    '                    raise NetrcParseError("bad follower token %r" % tt,',
    # Lib/netrc.py: netrc._security_check and authenticators.
    "            if (prop.st_mode & (stat.S_IRWXG | stat.S_IRWXO)):\n"
    "                raise NetrcParseError(\n"
    '                    "~/.netrc access too permissive: access"\n'
    '                    " permissions must restrict access to only"\n'
    '                    " the owner")\n'
    "\n"
    "    def authenticators(self, host):\n"
    '        """Return a (user, account, password) tuple for given host."""',
    # Lib/netrc.py: netrc.__repr__.
    "    def __repr__(self):\n"
    '        """Dump the class data in the format of a .netrc file."""\n'
    '        rep = ""\n'
    "        for host in self.hosts.keys():\n"
    "            attrs = self.hosts[host]\n"
    '            rep += f"machine {host}\\n\\tlogin {attrs[0]}\\n"\n'
    "            if attrs[1]:\n"
    '                rep += f"\\taccount {attrs[1]}\\n"\n'
    '            rep += f"\\tpassword {attrs[2]}\\n"\n'
    "        for macro in self.macros.keys():",
    # Lib/smtplib.py: SMTPAuthenticationError.
    "class SMTPAuthenticationError(SMTPResponseException):\n"
    '    """Authentication error.\n'
    "\n"
    "    Most probably the server didn't accept the username/password\n"
    "    combination provided.\n"
    '    """',
    # Lib/smtplib.py: SMTP.auth_cram_md5, auth_plain, auth_login.
    "    def auth_cram_md5(self, challenge=None):\n"
    '        """ Authobject to use with CRAM-MD5 authentication. Requires self.user\n'
    '        and self.password to be set."""\n'
    "        # CRAM-MD5 does not support initial-response.\n"
    "        if challenge is None:\n"
    "            return None\n"
    '        return self.user + " " + hmac.HMAC(\n'
    "            self.password.encode('ascii'), challenge, 'md5').hexdigest()\n"
    "\n"
    "    def auth_plain(self, challenge=None):\n"
    '        """ Authobject to use with PLAIN authentication. Requires self.user and\n'
    '        self.password to be set."""\n'
    '        return "\\0%s\\0%s" % (self.user, self.password)\n'
    "\n"
    "    def auth_login(self, challenge=None):\n"
    '        """ Authobject to use with LOGIN authentication. Requires self.user and\n'
    '        self.password to be set."""\n'
    "        if challenge is None or self._auth_challenge_count < 2:\n"
    "            return self.user\n"
    "        else:\n"
    "            return self.password",
    # Lib/smtplib.py: SMTP.login's docstring.
    "    def login(self, user, password, *, initial_response_ok=True):\n"
    '        """Log in on an SMTP server that requires authentication.\n'
    "\n"
    "        The arguments are:\n"
    "            - user:         The user name to authenticate with.\n"
    "            - password:     The password for the authentication.\n"
    "\n"
    "        Keyword arguments:\n"
    "            - initial_response_ok: Allow sending the RFC 4954 initial-response\n"
    "              to the AUTH command, if the authentication methods supports it.\n"
    "\n"
    "        If there has been no previous EHLO or HELO command this session, this\n"
    "        method tries ESMTP EHLO first.\n"
    "\n"
    "        This method will return normally if the authentication was successful.\n"
    "\n"
    "        This method may raise the following exceptions:\n"
    "\n"
    "         SMTPHeloError            The server didn't reply properly to\n"
    "                                  the helo greeting.\n"
    "         SMTPAuthenticationError  The server didn't accept the username/\n"
    "                                  password combination.\n"
    "         SMTPNotSupportedError    The AUTH command is not supported by the",
    # Lib/smtplib.py: SMTP_SSL's docstring.
    "        encrypted socket (to use this class you need a socket module that was\n"
    "        compiled with SSL support). If host is not specified, '' (the local\n"
    "        host) is used. If port is omitted, the standard SMTP-over-SSL port\n"
    "        (465) is used.  local_hostname and source_address have the same meaning\n"
    "        as they do in the SMTP class.  keyfile and certfile are also optional -\n"
    "        they can contain a PEM formatted private key and certificate chain file\n"
    "        for the SSL connection. context also optional, can contain a\n"
    "        SSLContext, and is an alternative to keyfile and certfile; If it is\n"
    "        specified both keyfile and certfile must be None.",
    # Lib/imaplib.py: IMAP4's docstring.
    "    All arguments to commands are converted to strings, except for\n"
    "    AUTHENTICATE, and the last argument to APPEND which is passed as\n"
    "    an IMAP4 literal.  If necessary (the string contains any\n"
    "    non-printing characters or white-space and isn't enclosed with\n"
    "    either parentheses or double quotes) each string is quoted.\n"
    "    However, the 'password' argument to the LOGIN command is always\n"
    "    quoted.  If you want to avoid having an argument string quoted\n"
    "    (eg: the 'flags' argument to STORE) then enclose the string in\n"
    '    parentheses (eg: "(\\Deleted)").',
    # Lib/imaplib.py: IMAP4.login.
    "    def login(self, user, password):\n"
    '        """Identify client using plaintext password.\n'
    "\n"
    "        (typ, [data]) = <instance>.login(user, password)\n"
    "\n"
    "        NB: 'password' will be quoted.\n"
    '        """\n'
    "        typ, dat = self._simple_command('LOGIN', user, self._quote(password))",
    # Lib/imaplib.py: IMAP4.login_cram_md5.
    "    def login_cram_md5(self, user, password):\n"
    '        """ Force use of CRAM-MD5 authentication.\n'
    "\n"
    "        (typ, [data]) = <instance>.login_cram_md5(user, password)\n"
    '        """\n'
    "        self.user, self.password = user, password\n"
    "        return self.authenticate('CRAM-MD5', self._CRAM_MD5_AUTH)\n"
    "\n"
    "\n"
    "    def _CRAM_MD5_AUTH(self, challenge):\n"
    '        """ Authobject to use with CRAM-MD5 authentication. """\n'
    "        import hmac\n"
    "        pwd = (self.password.encode('utf-8') if isinstance(self.password, str)\n"
    "                                             else self.password)\n"
    "        return self.user + \" \" + hmac.HMAC(pwd, challenge, 'md5').hexdigest()",
    # Lib/imaplib.py: IMAP4_SSL's docstring.
    "                host - host's name (default: localhost);\n"
    "                port - port number (default: standard IMAP4 SSL port);\n"
    "                keyfile - PEM formatted file that contains your private key (default: None);\n"
    "                certfile - PEM formatted certificate chain file (default: None);\n"
    "                ssl_context - a SSLContext object that contains your certificate chain\n"
    "                              and private key (default: None)\n"
    "                Note: if ssl_context is provided, then parameters keyfile or",
    # Lib/imaplib.py: the test at the end of the module.
    "    USER = getpass.getuser()\n"
    '    PASSWD = getpass.getpass("IMAP password for %s on %s: " % (USER, host or "localhost"))\n'
    "\n"
    "    test_mesg = 'From: %(user)s@localhost%(lf)sSubject: IMAP4 test%(lf)s%(lf)sdata...%(lf)"
    "s' % {'user':USER, 'lf':'\\n'}\n"
    "    test_seq1 = (\n"
    "    ('login', (USER, PASSWD)),\n"
    "    ('create', ('/tmp/xxx 1',)),",
    # Lib/ftplib.py: the module docstring.
    "Example:\n"
    "\n"
    ">>> from ftplib import FTP\n"
    ">>> ftp = FTP('ftp.python.org') # connect to host, default port\n"
    ">>> ftp.login() # default, i.e.: user anonymous, passwd anonymous@\n"
    "'230 Guest login ok, access restrictions apply.'",
    # Lib/ftplib.py: FTP.login.
    "    def login(self, user = '', passwd = '', acct = ''):\n"
    "        '''Login, default anonymous.'''\n"
    "        if not user:\n"
    "            user = 'anonymous'\n"
    "        if not passwd:\n"
    "            passwd = ''\n"
    "        if not acct:\n"
    "            acct = ''\n"
    "        if user == 'anonymous' and passwd in {'', '-'}:\n"
    "            # If there is no anonymous ftp password specified\n"
    "            # then we'll just use anonymous@\n"
    "            # We don't send any other thing because:\n"
    "            # - We want to remain anonymous\n"
    "            # - We want to stop SPAM\n"
    "            # - We don't want to let ftp sites to discriminate by the user,\n"
    "            #   host or country.\n"
    "            passwd = passwd + 'anonymous@'\n"
    "        resp = self.sendcmd('USER ' + user)\n"
    "        if resp[0] == '3':\n"
    "            resp = self.sendcmd('PASS ' + passwd)",
    # Lib/ftplib.py: FTP.acct.
    "    def acct(self, password):\n"
    "        '''Send new account name.'''\n"
    "        cmd = 'ACCT ' + password\n"
    "        return self.voidcmd(cmd)",
    # Lib/ftplib.py: test()'s docstring.
    "def test():\n"
    "    '''Test program.\n"
    "    Usage: ftp [-d] [-r[file]] host [-l[dir]] [-d[dir]] [-p] [file] ...\n"
    "\n"
    "    -d dir\n"
    "    -l list\n"
    "    -p password\n"
    "    '''\n"
    "\n"
    "    if len(sys.argv) < 2:",
    # Lib/ftplib.py: test().
    "    userid = passwd = acct = ''\n"
    "    try:\n"
    "        netrcobj = netrc.netrc(rcfile)\n"
    "    except OSError:\n"
    "        if rcfile is not None:\n"
    '            sys.stderr.write("Could not open account file"\n'
    '                             " -- using anonymous login.")\n'
    "    else:\n"
    "        try:\n"
    "            userid, acct, passwd = netrcobj.authenticators(host)\n"
    "        except KeyError:\n"
    "            # no account for host\n"
    "            sys.stderr.write(\n"
    '                    "No account -- using anonymous login.")\n'
    "    ftp.login(userid, passwd, acct)",
    # Lib/urllib/request.py: _parse_proxy's docstring.
    "def _parse_proxy(proxy):\n"
    '    """Return (scheme, user, password, host/port) given a URL or an authority.\n'
    "\n"
    "    If a URL is supplied, it must have an authority (host:port) component.\n"
    "    According to RFC 3986, having an authority component means the URL must\n"
    "    have two slashes after the scheme.",
    # Lib/urllib/request.py: HTTPPasswordMgr.
    "class HTTPPasswordMgr:\n"
    "\n"
    "    def __init__(self):\n"
    "        self.passwd = {}\n"
    "\n"
    "    def add_password(self, realm, uri, user, passwd):\n"
    "        # uri could be a single URI or a sequence\n"
    "        if isinstance(uri, str):\n"
    "            uri = [uri]\n"
    "        if realm not in self.passwd:\n"
    "            self.passwd[realm] = {}\n"
    "        for default_port in True, False:\n"
    "            reduced_uri = tuple(\n"
    "                self.reduce_uri(u, default_port) for u in uri)\n"
    "            self.passwd[realm][reduced_uri] = (user, passwd)\n"
    "\n"
    "    def find_user_password(self, realm, authuri):\n"
    "        domains = self.passwd.get(realm, {})\n"
    "        for default_port in True, False:",
    # Lib/urllib/request.py: HTTPPasswordMgrWithPriorAuth.
    "class HTTPPasswordMgrWithPriorAuth(HTTPPasswordMgrWithDefaultRealm):\n"
    "\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        self.authenticated = {}\n"
    "        super().__init__(*args, **kwargs)\n"
    "\n"
    "    def add_password(self, realm, uri, user, passwd, is_authenticated=False):\n"
    "        self.update_authenticated(uri, is_authenticated)\n"
    "        # Add a default for prior auth requests\n"
    "        if realm is not None:\n"
    "            super().add_password(None, uri, user, passwd)\n"
    "        super().add_password(realm, uri, user, passwd)",
    # Lib/urllib/request.py: AbstractBasicAuthHandler.http_request.
    "    def http_request(self, req):\n"
    "        if (not hasattr(self.passwd, 'is_authenticated') or\n"
    "           not self.passwd.is_authenticated(req.full_url)):\n"
    "            return req\n"
    "\n"
    "        if not req.has_header('Authorization'):\n"
    "            user, passwd = self.passwd.find_user_password(None, req.full_url)\n"
    "            credentials = '{0}:{1}'.format(user, passwd).encode()\n"
    "            auth_str = base64.standard_b64encode(credentials).decode()\n"
    "            req.add_unredirected_header('Authorization',\n"
    "                                        'Basic {}'.format(auth_str.strip()))\n"
    "        return req\n"
    "\n"
    "    def http_response(self, req, response):\n"
    "        if hasattr(self.passwd, 'is_authenticated'):\n"
    "            if 200 <= response.code < 300:\n"
    "                self.passwd.update_authenticated(req.full_url, True)\n"
    "            else:\n"
    "                self.passwd.update_authenticated(req.full_url, False)",
    # Lib/urllib/request.py: HTTPDigestAuthHandler's docstring.
    '    """An authentication protocol defined by RFC 2069\n'
    "\n"
    "    Digest authentication improves on basic authentication because it\n"
    "    does not transmit passwords in the clear.\n"
    '    """',
    # Lib/urllib/parse.py: _NetlocResultMixinBase.
    "    @property\n"
    "    def username(self):\n"
    "        return self._userinfo[0]\n"
    "\n"
    "    @property\n"
    "    def password(self):\n"
    "        return self._userinfo[1]\n"
    "\n"
    "    @property\n"
    "    def hostname(self):",
    # Lib/urllib/parse.py: _NetlocResultMixinStr._userinfo.
    "    @property\n"
    "    def _userinfo(self):\n"
    "        netloc = self.netloc\n"
    "        userinfo, have_info, hostinfo = netloc.rpartition('@')\n"
    "        if have_info:\n"
    "            username, have_password, password = userinfo.partition(':')\n"
    "            if not have_password:\n"
    "                password = None\n"
    "        else:\n"
    "            username = password = None\n"
    "        return username, password",
    # Lib/logging/handlers.py: SMTPHandler.__init__.
    "    def __init__(self, mailhost, fromaddr, toaddrs, subject,\n"
    "                 credentials=None, secure=None, timeout=5.0):\n"
    '        """\n'
    "        Initialize the handler.\n"
    "\n"
    "        Initialize the instance with the from and to addresses and subject\n"
    "        line of the email. To specify a non-standard SMTP port, use the\n"
    "        (host, port) tuple format for the mailhost argument. To specify\n"
    "        authentication credentials, supply a (username, password) tuple\n"
    "        for the credentials argument. To specify the use of a secure\n"
    "        protocol (TLS), pass in a tuple for the secure argument. This will\n"
    "        only be used when authentication credentials are supplied. The tuple\n"
    "        will be either an empty tuple, or a single-value tuple with the name\n"
    "        of a keyfile, or a 2-value tuple with the names of the keyfile and\n"
    "        certificate file. (This tuple is passed to the `starttls` method).",
    # Lib/poplib.py: POP3.user and POP3.pass_.
    "    def user(self, user):\n"
    '        """Send user name, return response\n'
    "\n"
    "        (should indicate password required).\n"
    '        """\n'
    "        return self._shortcmd('USER %s' % user)\n"
    "\n"
    "\n"
    "    def pass_(self, pswd):\n"
    '        """Send password, return response\n'
    "\n"
    "        (response includes message count, mailbox size).",
    # Lib/poplib.py: POP3.apop.
    "    def apop(self, user, password):\n"
    '        """Authorisation\n'
    "\n"
    "        - only possible if server has supplied a timestamp in initial greeting.\n"
    "\n"
    "        Args:\n"
    "                user     - mailbox user;\n"
    "                password - mailbox password.\n"
    "\n"
    "        NB: mailbox is locked by server from here to 'quit()'\n"
    '        """\n'
    "        secret = bytes(password, self.encoding)\n"
    "        m = self.timestamp.match(self.welcome)\n"
    "        if not m:",
    # Lib/hashlib.py: pbkdf2_hmac.
    "    def pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):\n"
    '        """Password based key derivation function 2 (PKCS #5 v2.0)\n'
    "\n"
    "        This Python implementations based on the hmac module about as fast\n"
    "        as OpenSSL's PKCS5_PBKDF2_HMAC for short passwords and much faster\n"
    "        for long passwords.\n"
    '        """\n'
    "        _warn(",
    # Lib/hmac.py: HMAC.__init__'s docstring.
    "    def __init__(self, key, msg=None, digestmod=''):\n"
    '        """Create a new HMAC object.\n'
    "\n"
    "        key: bytes or buffer, key for the keyed hash object.\n"
    "        msg: bytes or buffer, Initial input for the hash or None.\n"
    "        digestmod: A hash name suitable for hashlib.new(). *OR*\n"
    "                   A hashlib constructor returning a new hash object. *OR*\n"
    "                   A module supporting PEP 247.\n"
    "\n"
    "                   Required as of 3.8, despite its position after the optional\n"
    "                   msg argument.  Passing it as a keyword argument is\n"
    "                   recommended, though not required for legacy API reasons.\n"
    '        """',
    # Lib/secrets.py: the module docstring and __all__.
    '"""Generate cryptographically strong pseudo-random numbers suitable for\n'
    "managing secrets such as account authentication, tokens, and similar.\n"
    "\n"
    "See PEP 506 for more information.\n"
    "https://peps.python.org/pep-0506/\n"
    "\n"
    '"""\n'
    "\n"
    "__all__ = ['choice', 'randbelow', 'randbits', 'SystemRandom',\n"
    "           'token_bytes', 'token_hex', 'token_urlsafe',\n"
    "           'compare_digest',\n"
    "           ]",
    # Lib/getpass.py: __all__ and GetPassWarning.
    '__all__ = ["getpass","getuser","GetPassWarning"]\n\n\nclass GetPassWarning(UserWarning): pass',
    # Lib/urllib/request.py: __all__.
    "__all__ = [\n"
    "    # Classes\n"
    "    'Request', 'OpenerDirector', 'BaseHandler', 'HTTPDefaultErrorHandler',\n"
    "    'HTTPRedirectHandler', 'HTTPCookieProcessor', 'ProxyHandler',\n"
    "    'HTTPPasswordMgr', 'HTTPPasswordMgrWithDefaultRealm',\n"
    "    'HTTPPasswordMgrWithPriorAuth', 'AbstractBasicAuthHandler',\n"
    "    'HTTPBasicAuthHandler', 'ProxyBasicAuthHandler', 'AbstractDigestAuthHandler',\n"
    "    'HTTPDigestAuthHandler', 'ProxyDigestAuthHandler', 'HTTPHandler',\n"
    "    'FileHandler', 'FTPHandler', 'CacheFTPHandler', 'DataHandler',\n"
    "    'UnknownHandler', 'HTTPErrorProcessor',\n"
    "    # Functions\n"
    "    'urlopen', 'install_opener', 'build_opener',\n"
    "    'pathname2url', 'url2pathname', 'getproxies',\n"
    "    # Legacy interface\n"
    "    'urlretrieve', 'urlcleanup', 'URLopener', 'FancyURLopener',\n"
    "]",
    # Lib/ssl.py: SSLContext's docstring.
    "class SSLContext(_SSLContext):\n"
    '    """An SSLContext holds various SSL-related configuration options and\n'
    '    data, such as certificates and possibly a private key."""\n'
    '    _windows_cert_stores = ("CA", "ROOT")',
)

# Passages quoted as they are from packages of the dev venv (site-packages/
# of requests 2.34.2, urllib3, pip 23.2.1, hypothesis 6.170.17, graphifyy
# 0.9.96).
PACKAGES = (
    # site-packages/requests/auth.py: _basic_auth_str.
    'def _basic_auth_str(username: bytes | str, password: bytes | str) -> str:\n    """Returns a Basic Auth string."""',
    # site-packages/requests/auth.py: HTTPBasicAuth.
    '    """Attaches HTTP Basic Authentication to the given Request object."""\n'
    "\n"
    "    username: bytes | str\n"
    "    password: bytes | str\n"
    "\n"
    "    @overload\n"
    "    def __init__(self, username: str, password: str) -> None: ...\n"
    "    @overload\n"
    "    def __init__(self, username: bytes, password: bytes) -> None: ...\n"
    "\n"
    "    def __init__(self, username: bytes | str, password: bytes | str) -> None:\n"
    "        self.username = username\n"
    "        self.password = password",
    # site-packages/requests/auth.py: HTTPDigestAuth.build_digest_header.
    "        p_parsed = urlparse(url)\n"
    "        #: path is request-uri defined in RFC 2616 which should not be empty\n"
    '        path = p_parsed.path or "/"\n'
    "        if p_parsed.query:\n"
    '            path += f"?{p_parsed.query}"\n'
    "\n"
    '        A1 = f"{self.username}:{realm}:{self.password}"\n'
    '        A2 = f"{method}:{path}"\n'
    "\n"
    "        HA1 = hash_utf8(A1)",
    # site-packages/requests/utils.py: get_auth_from_url.
    "def get_auth_from_url(url: str) -> tuple[str, str]:\n"
    '    """Given a url with authentication components, extract them into a tuple of\n'
    "    username,password.\n"
    "\n"
    "    :rtype: (str,str)\n"
    '    """\n'
    "    parsed = urlparse(url)\n"
    "\n"
    "    try:\n"
    "        # except handles parsed.username/password being None\n"
    "        auth = (unquote(parsed.username), unquote(parsed.password))  # type: ignore[arg-type]\n"
    "    except (AttributeError, TypeError):\n"
    '        auth = ("", "")',
    # site-packages/requests/utils.py: get_netrc_auth.
    "def get_netrc_auth(\n"
    "    url: _t.UriType, raise_errors: bool = False\n"
    ") -> tuple[str, str] | None:\n"
    '    """Returns the Requests tuple auth for a given url from netrc."""',
    # site-packages/requests/sessions.py: Session.rebuild_proxies.
    '        if "Proxy-Authorization" in headers:\n'
    '            del headers["Proxy-Authorization"]\n'
    "\n"
    "        try:\n"
    "            username, password = get_auth_from_url(new_proxies[scheme])\n"
    "        except KeyError:\n"
    "            username, password = None, None\n"
    "\n"
    "        # urllib3 handles proxy authorization for us in the standard adapter.\n"
    "        # Avoid appending this to TLS tunneled requests where it may be leaked.\n"
    '        if not scheme.startswith("https") and username and password:\n'
    '            headers["Proxy-Authorization"] = _basic_auth_str(username, password)',
    # site-packages/urllib3/util/request.py: make_headers' docstring.
    "    :param basic_auth:\n"
    "        Colon-separated username:password string for 'authorization: basic ...'\n"
    "        auth header. Basic authentication transmits Base64-encoded bytes, not\n"
    "        Unicode text, so the string is encoded with ``basic_auth_encoding``\n"
    "        before Base64 encoding.\n"
    "\n"
    "        Must contain decoded credentials (not percent-encoded).\n"
    "        For URLs parsed with :func:`parse_url`, use :attr:`Url.auth_decoded_joined`\n"
    "        to get the properly formatted string.",
    # site-packages/urllib3/util/url.py: Url.auth_decoded.
    "    @property\n"
    "    def auth_decoded(self) -> tuple[None, None] | tuple[str, str | None]:\n"
    '        """\n'
    "        User information with %-escapes decoded as UTF-8, returned as a\n"
    "        ``(username, password)`` tuple.\n"
    "\n"
    "        Both values are ``None`` if ``auth`` is ``None``.\n"
    "        ``password`` is ``None`` if not present in the auth component.\n"
    '        """\n'
    "        if self.auth is None:\n"
    "            return None, None\n"
    '        username, sep, password = self.auth.partition(":")\n'
    "        return (\n"
    '            _unquote(username, encoding="utf-8"),\n'
    '            _unquote(password, encoding="utf-8") if sep else None,\n'
    "        )",
    # site-packages/urllib3/util/url.py: Url.auth_decoded_joined.
    "        'authorization: basic ...' header. Use the ``basic_auth_encoding`` or\n"
    "        ``proxy_basic_auth_encoding`` parameters of\n"
    "        :func:`urllib3.util.make_headers` when converting the returned string\n"
    "        into Basic authentication bytes.\n"
    "\n"
    "        This is a convenience property that joins the username and\n"
    "        password with a colon, if both are present.\n"
    "        If only the username is present, a trailing colon is still\n"
    "        appended.\n"
    "        If ``auth`` is ``None``, this returns ``None``.\n"
    '        """\n'
    "        username, password = self.auth_decoded\n"
    "        if username is None:\n"
    "            return None\n"
    "        return f\"{username}:{password or ''}\"",
    # site-packages/urllib3/util/url.py: Url.url's docstring.
    '            U = urllib3.util.parse_url("https://google.com/mail/")\n'
    "\n"
    "            print(U.url)\n"
    '            # "https://google.com/mail/"\n'
    "\n"
    '            print( urllib3.util.Url("https", "username:password",\n'
    '                                    "host.com", 80, "/path", "query", "fragment"\n'
    "                                    ).url\n"
    "                )\n"
    '            # "https://username:password@host.com:80/path?query#fragment"\n'
    '        """\n'
    "        scheme, auth, host, port, path, query, fragment = self",
    # site-packages/urllib3/poolmanager.py: SSL_KEYWORDS.
    '    "ssl_minimum_version",\n'
    '    "ssl_maximum_version",\n'
    '    "ca_cert_dir",\n'
    '    "ssl_context",\n'
    '    "key_password",\n'
    '    "server_hostname",\n'
    '    "assert_hostname",',
    # site-packages/urllib3/contrib/pyopenssl.py: PyOpenSSLContext.load_cert_chain.
    "    def load_cert_chain(\n"
    "        self,\n"
    "        certfile: str,\n"
    "        keyfile: str | None = None,\n"
    "        password: str | bytes | None = None,\n"
    "    ) -> None:\n"
    "        try:\n"
    "            self._ctx.use_certificate_chain_file(certfile)\n"
    "            if password is not None:\n"
    "                if not isinstance(password, bytes):\n"
    '                    password = password.encode("utf-8")\n'
    "                # pyOpenSSL added cryptography-key support in 24.3.0.\n"
    "                # Keep using the older password-callback path until 2026's\n"
    "                # versions because set_passwd_cb() became deprecated in 26.3.0.\n"
    '                if int(OpenSSL.__version__.split(".")[0]) >= 26:\n'
    '                    with open(keyfile or certfile, "rb") as key_file:\n'
    "                        key_data = key_file.read()\n"
    "                    try:\n"
    "                        private_key = load_pem_private_key(key_data, password)\n"
    "                    except TypeError:\n"
    "                        # Match SSLContext by ignoring passwords supplied\n"
    "                        # for unencrypted keys.\n"
    "                        # Incorrect passwords for encrypted keys raise\n"
    "                        # ValueError instead.\n"
    "                        private_key = load_pem_private_key(key_data, None)\n"
    "                    # cryptography's loader returns a wider private-key union\n"
    "                    # than pyOpenSSL accepts, so we add `type: ignore` here.\n"
    "                    self._ctx.use_privatekey(private_key)  # type: ignore[arg-type]",
    # site-packages/urllib3/util/ssl_.py: ssl_wrap_socket's docstring.
    "    :param key_password:\n        Optional password if the keyfile is encrypted.",
    # site-packages/urllib3/contrib/socks.py: SOCKSProxyManager.__init__.
    "    def __init__(\n"
    "        self,\n"
    "        proxy_url: str,\n"
    "        username: str | None = None,\n"
    "        password: str | None = None,\n"
    "        num_pools: int = 10,\n"
    "        headers: typing.Mapping[str, str] | None = None,\n"
    "        **connection_pool_kw: typing.Any,\n"
    "    ):\n"
    "        parsed = parse_url(proxy_url)\n"
    "\n"
    "        if username is None and password is None:\n"
    "            username, password = parsed.auth_decoded\n"
    '        if parsed.scheme == "socks5":',
    # site-packages/pip/_internal/utils/misc.py: split_auth_from_netloc.
    "def split_auth_from_netloc(netloc: str) -> NetlocTuple:\n"
    '    """\n'
    "    Parse out and remove the auth information from a netloc.\n"
    "\n"
    "    Returns: (netloc, (username, password)).\n"
    '    """',
    # site-packages/pip/_internal/utils/misc.py: redact_netloc.
    "def redact_netloc(netloc: str) -> str:\n"
    '    """\n'
    '    Replace the sensitive data in a netloc with "****", if it exists.\n'
    "\n"
    "    For example:\n"
    '        - "user:pass@example.com" returns "user:****@example.com"\n'
    '        - "accesstoken@example.com" returns "****@example.com"\n'
    '    """\n'
    "    netloc, (user, password) = split_auth_from_netloc(netloc)\n"
    "    if user is None:\n"
    "        return netloc\n"
    "    if password is None:\n"
    '        user = "****"',
    # site-packages/pip/_internal/utils/misc.py: redact_auth_from_url and HiddenText.
    "def redact_auth_from_url(url: str) -> str:\n"
    '    """Replace the password in a given url with ****."""\n'
    "    return _transform_url(url, _redact_netloc)[0]\n"
    "\n"
    "\n"
    "class HiddenText:\n"
    "    def __init__(self, secret: str, redacted: str) -> None:\n"
    "        self.secret = secret\n"
    "        self.redacted = redacted",
    # site-packages/pip/_internal/network/auth.py: KeyRingPythonProvider.
    "    def get_auth_info(self, url: str, username: Optional[str]) -> Optional[AuthInfo]:\n"
    "        # Support keyring's get_credential interface which supports getting\n"
    "        # credentials without a username. This is only available for\n"
    "        # keyring>=15.2.0.\n"
    '        if hasattr(self.keyring, "get_credential"):\n'
    '            logger.debug("Getting credentials from keyring for %s", url)\n'
    "            cred = self.keyring.get_credential(url, username)\n"
    "            if cred is not None:\n"
    "                return cred.username, cred.password\n"
    "            return None\n"
    "\n"
    "        if username is not None:\n"
    '            logger.debug("Getting password from keyring for %s", url)\n'
    "            password = self.keyring.get_password(url, username)\n"
    "            if password:\n"
    "                return username, password\n"
    "        return None\n"
    "\n"
    "    def save_auth_info(self, url: str, username: str, password: str) -> None:\n"
    "        self.keyring.set_password(url, username, password)",
    # site-packages/hypothesis/database.py: GitHubArtifactDatabase's docstring.
    "    .. note::\n"
    "        You must provide ``GITHUB_TOKEN`` as an environment variable. In CI, Github Action"
    "s provides\n"
    "        this automatically, but it needs to be set manually for local usage. In a develope"
    "r machine,\n"
    "        this would usually be a `Personal Access Token <https://docs.github.com/en/authent"
    "ication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens>`_.\n"
    "        If the repository is private, it's necessary for the token to have ``repo`` scope\n"
    "        in the case of a classic token, or ``actions:read`` in the case of a fine-grained token.",
    # site-packages/hypothesis/extra/ghostwriter.py: the names that get text().
    ")\n"
    "STRING_NAMES = (\n"
    '    "text", "txt", "password", "label", "prefix", "suffix", "desc", "description",\n'
    '    "str", "pattern", "subject", "reason", "comment", "prompt", "sentence", "sep",',
    # site-packages/graphify/security.py: redact_secrets.
    "def redact_secrets(text: str | None) -> str:\n"
    '    """Replace credential-shaped substrings in *text* with ``[redacted]``.\n'
    "\n"
    "    Applied to free text copied out of source files (docstrings and ``# WHY:``\n"
    "    style comments) before it becomes a node label, so a token pasted into a\n"
    "    comment does not land in graph.json / graph.html / GRAPH_REPORT.md.\n"
    '    """\n'
    "    if not text:\n"
    '        return "" if text is None else text\n'
    "    return _SECRET_SHAPE_RE.sub(REDACTED_MARKER, str(text))",
    # site-packages/graphify/llm.py: provider_base_url_ok's docstring.
    "    A custom provider receives the full corpus plus the user's API key, so its\n"
    "    base_url is an exfiltration channel. We deliberately do NOT run the ingest\n"
    "    SSRF guard here: that blocks private/internal IPs, which would wrongly reject\n"
    "    legitimate on-prem corporate LLM gateways. Instead we reject non-http(s)\n"
    "    schemes outright and warn loudly when the corpus would leave over plaintext\n"
    "    http to a non-loopback host. The primary control against trusting injected\n"
    "    config is the GRAPHIFY_ALLOW_LOCAL_PROVIDERS gate on project-local files.\n"
    '    """\n'
    "    from urllib.parse import urlparse",
    # site-packages/graphify/llm.py: _call_claude_cli's docstring.
    '    """Call Claude via the locally-installed Claude Code CLI (`claude -p`).\n'
    "\n"
    "    Routes through the user's Claude Code subscription auth instead of a separate\n"
    "    ANTHROPIC_API_KEY. Useful for Pro/Max subscribers who don't want to provision\n"
    "    a pay-as-you-go API key just to run graphify's semantic pass.",
    # site-packages/graphify/llm.py: the backend API-key helpers.
    '    """Return accepted API-key environment variables for a backend."""\n'
    "    cfg = BACKENDS[backend]\n"
    '    keys = cfg.get("env_keys")\n'
    "    if keys:\n"
    "        return list(keys)\n"
    '    env_key = cfg.get("env_key")\n'
    "    if env_key:\n"
    "        return [env_key]\n"
    "    return []\n"
    "\n"
    "\n"
    "def _get_backend_api_key(backend: str) -> str:\n"
    '    """Return the first configured API key for backend, or an empty string."""\n'
    "    for env_key in _backend_env_keys(backend):\n"
    "        value = os.environ.get(env_key)\n"
    "        if value:\n"
    "            return value\n"
    '    return ""\n'
    "\n"
    "\n"
    "def _format_backend_env_keys(backend: str) -> str:\n"
    '    """Return user-facing accepted API-key variable names."""',
    # site-packages/graphify/cli.py: the export usage text.
    '            print("  svg       [--graph PATH] [--labels PATH]", file=sys.stderr)\n'
    '            print("  graphml   [--graph PATH]", file=sys.stderr)\n'
    '            print("  neo4j     [--graph PATH] [--push URI] [--user U] [--password P]", fil'
    "e=sys.stderr)\n"
    '            print("            (or set NEO4J_PASSWORD instead of --password to keep it off'
    ' argv)", file=sys.stderr)\n'
    '            print("  falkordb  [--graph PATH] [--push URI] [--user U] [--password P]", fil'
    "e=sys.stderr)\n"
    '            print("            (or set FALKORDB_PASSWORD instead of --password to keep it '
    'off argv)", file=sys.stderr)',
    # site-packages/graphify/cli.py: the push password.
    "        # falkordb), parsed from the generic --push/--user/--password flags below.\n"
    "        push_uri: str | None = None\n"
    '        push_user = "neo4j"  # Neo4j default user; FalkorDB auth is optional and ignores it\n'
    "        # F-031: prefer an env var so the password never appears on argv (visible\n"
    "        # in `ps` output / shell history). The explicit --password flag still\n"
    "        # overrides it. Each sink reads its own var: FALKORDB_PASSWORD for falkordb,\n"
    "        # NEO4J_PASSWORD otherwise.\n"
    "        push_password: str | None = (\n"
    '            os.environ.get("FALKORDB_PASSWORD") if subcmd == "falkordb"\n'
    '            else os.environ.get("NEO4J_PASSWORD")',
    # site-packages/graphify/cli.py: the missing API key error.
    '                            "(local AST, no key) and skip the non-code files.")\n'
    "                print(\n"
    '                    "error: no LLM API key found (" + "; ".join(reasons) + "). "\n'
    '                    "Set GEMINI_API_KEY or GOOGLE_API_KEY (gemini), MOONSHOT_API_KEY "\n'
    '                    "(kimi), ANTHROPIC_API_KEY (claude), OPENAI_API_KEY (openai), "\n'
    '                    "DEEPSEEK_API_KEY (deepseek), or pass --backend. A code-only "\n'
    '                    "corpus needs no key." + hint,',
)

# gitleaks' published false positives (cmd/generate/config/rules/*.go, the
# fps lists of its rules' validation) that are plainly not secrets:
# placeholders, runs, redactions, values cut off, empty or prose PEM
# bodies, names in code, file names.  Prefixes are split and runs written
# as repetitions; where the original carries a hex digest or a UUID (a
# content hash, an ID), one computed from a fixed input stands in for it.
# Left out: the fps that are random strings, signatures, encrypted tokens
# or real-looking keys (gitleaks keeps them to test its own boundaries).
GITLEAKS = (
    # 1password.go
    "        login:\n          serviceAccountToken:\n            fn::secret: " + "op" + "s_eyJzaWduSW5B..[Redacted]",
    ": To start using this service account, run the following command:\n:\n"
    ": export OP_SERVICE_ACCOUNT_TOKEN=" + "op" + "s_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6...",
    "op" + "s_eyJ" + "x" * 330,
    "A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX",
    "A3-xXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX",
    # anthropic.go: bodies made of runs (abc123xyz, klmnopqrstuvwx, ...).
    "s" + "k-ant-api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA",
    "s" + "k-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzBB",
    "s"
    + "k-ant-admin01-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA",
    "s" + "k-ant-admin01-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA",
    "s"
    + "k-ant-admin01-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzBB",
    "s" + "k-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA",
    # artifactory.go
    "lowEntropy := " + "AKC" + "p" + "X" * 69,
    "lowEntropy := " + "cmV" + "md" + "X" * 59,
    # atlassian.go
    "getPagesInConfluenceSpace,searchConfluenceUsingCql",
    # aws.go
    "key = " + AWS_ID + "X" * 16,
    "aws_access_key: " + AWS_ID + "IOSFODNN7" + "EXAMPLE",
    'msgstr "Näytä asiakirjamallikansio."',
    "TODAYINASIAASACKOFRICEFELLOVER",
    "ABS" + "KQmVkcm9ja0FQSUtleS1" + "EXAMPLE",
    "ABS" + "KQmVkcm9ja0FQSUtleS1" + "EXAMPLE" * 48 + "=",
    "AXS" + "KQmVkcm9ja0FQSUtleS1" + "EXAMPLE" * 15 + "EXM=",
    "bedrock-api-key-",
    "bedrock-api-key-" + "YmVkcm9jay5hbWF6b25hd3MuY29x",
    # azure.go
    "~" * 40,
    "~" * 43,
    ".ui.visible.right.sidebar~.ui.visible.left.sidebar~.pusher{transform:translate3d(0,0,0)}",
    'buf.WriteString("' + "~" * 38 + '\\n\\n::\\n\\n")',
    "'url': 'http://www.2doc.nl/speel~VARA_101375237~mh17-het-verdriet-van-nederland~.html',",
    "'#!/registries/5/portainer.demo~2Fportainerregistrytesting~2Falpine',",
    "client_secret=" + "bP88Q" + "~" + "x" * 34,
    # beamer.go: a firmware file name.
    "\u2502   \u251c\u2500\u2500 R21A-A-V010SP13RC181024R16900-CN-B_250K-Release-OTA-"
    + hashlib.sha256(b"R21A-A-V010SP13RC181024R16900").hexdigest()[:32].upper()
    + ".bfu",
    # clickhouse.go
    "key = " + "4b1d" + "X" * 38,
    # cohere.go
    "CO_API_KEY=" + "x" * 40,
    # curl.go: placeholders, variables, templates, no password.
    "curl -i -u 'test:test'",
    '   curl -sL --user "$1:$2" "$3" > "$4"',
    "curl -u <user:password> https://test.com/endpoint",
    "curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/",
    'curl -u "myusername" http://localhost:15130/api/check_user/',
    "curl -u username:token",
    'curl -u "${_username}:${_password}"',
    'curl -u "${username}":"${password}"',
    'curl -k -X POST -I -u "SRVC_JENKINS:${APPID}"',
    'curl -u ":" https://localhost:9200',
    "curl -sw '%{http_code}' -X POST --user '$USERNAME:$PASSWORD' $GItHUB_API_URL/$GIT_COMMIT --data",
    'curl --user "xxx:yyy"',
    '           curl -sL --user "$GITHUB_USERNAME:$GITHUB_PASSWORD" "$GITHUB_URL" > "$TESTS_PATH"',
    "curl --silent --fail {{- if and $.Values.username $.Values.password }} "
    '--user "{{ $.Values.username }}:{{ $.Values.password }}"',
    'curl -XGET -i -u "${{ env.ELK_ID }}:${{ build.env.ELK_PASS }}"',
    'curl -XGET -i -u "${{needs.vault.outputs.account_id}}:${{needs.vault.outputs.account_password}}"',
    'curl -XGET -i -u "${{ steps.vault.outputs.account_id }}:${{ steps.vault.outputs.account_password }}"',
    'curl -X POST --user "$(cat ./login.txt):$(cat ./password.txt)"',
    "curl http://127.0.0.1:5000/file --user user:pass --digest        # digest auth",
    '   curl -X GET --insecure --user "username:password" \\',
    "curl --silent --insecure --user ${f5user}:${f5pass} \\",
    'curl --insecure --ssl-reqd "smtps://smtp.gmail.com" --mail-from "src@gmail.com" '
    '--mail-rcpt "dst@gmail.com" --user "src@gmail.com" --upload-file out.txt',
    "#HTTP command line test\n"
    'curl -X POST -H "Content-Type: application/json" -d \'{"id":12345,"geo":{"latitude":28.50,'
    '"longitude":-81.14}}\' http://<ip>:8080/serve\n\n#UDP command line test\n'
    'echo -n \'{"type":"serve","channel":"/","data":{"site_id":8,"post_id":12345,"geo":{"lat":28.50,'
    '"long":-81.14}}}\' >/dev/udp/127.0.0.1/41234\n\n#UDP Listener (for confirmation)\nnc -u -l 41234',
    'curl https://example.com/micropub -d h=entry -d "content=Hello World" -H "Authorization: Bearer XXXXXXXXXXXX"',
    "curl -X POST https://accounts.spotify.com/api/token -d grant_type=client_credentials "
    '--header "Authorization: Basic ..."',
    'curl \\\n  -H "Authorization: Bearer <Openverse API token>" \\\n  "https://api.openverse.org/v1/audio/?q=test"',
    "curl -v -v -v -X POST https://domain/api/v1/authentication/sso/login-url/ \\\n"
    "  -H 'Content-Type: application/json' \\\n"
    '  -H "Authorization: Token **********" \\\n'
    '  -d \'{"username": "test", "next": "/luna/"}\'',
    'curl -XPOST http://localhost:8080/api/token -H "Authorization: basic {base64(email:password[\\n])}" => token',
    'curl -X GET \\\n     -H "apikey: $API_KEY" \\\n     -H "Accept: $FORMAT" \\\n'
    '"$API_URL/rest/v1/stats_derniere_labellisation"',
    '$ curl -X POST "http://localhost:8000/v1/chat/completions" \\\n'
    '    -H "Content-Type: application/json" \\\n'
    '    -H "Authorization: Bearer $API_KEY" \\\n'
    "    -d '{\n"
    '        "model": "chatglm3-6b-32k",\n'
    '        "messages": [{"role": "system", "content": "You are a helpful assistant."}, '
    '{"role": "user", "content": "Hello!"}]\n'
    "    }'",
    # databricks.go: a body of runs.
    "DATABRICKS_TOKEN=" + "dap" + "i123456789012345678a9bc01234defg5",
    # discord.go
    "discord=" + "0" * 18,
    "discord=" + "0" * 32,
    # etsy.go
    "\tif err := sysctl.SetSysctl(sysctlBridgeCallIPTables); err != nil {",
    "in XCBuild.XCBBuildServiceSession.setSystemInfo(operatingSystemVersion: __C.NSOperatingSystemVersion, "
    "productBuildVersion: Swift.String, nativeArchitecture: Swift.String, completion: (Swift.Bool) -> ()) -> ()",
    # facebook.go: a yarn lock entry (its checksum computed here).
    '"strict-uri-encode@npm:^2.0.0":\n  version: 2.0.0\n  resolution: "strict-uri-encode@npm:2.0.0"\n'
    "  checksum: " + hashlib.sha512(b"strict-uri-encode@npm:2.0.0").hexdigest() + "\n"
    "  languageName: node\n  linkType: hard",
    # flyio.go
    'resource "doppler_integration_flyio" "prod" {\n  name    = "TF Fly.io"\n'
    '  api_key = "' + "fo" + "1_" + "x" * 43 + '"\n}',
    "pub const MINIDUMP_SYSMEMINFO1_PERF_CCTOTALDIRTYPAGES_CCDIRTYPAGETHRESHOLD: u32 = 4u32;",
    # gcp.go
    'apiKey: "' + "AI" + "za" + "a" * 35 + '"',
    "AI" + "zaSyabcdefghijklmnopqrstuvwxyz1234567",
    # generic.go: names in code, versions, empty values (IDs and hashes
    # computed here).
    "report_access_id: " + str(uuid.uuid5(uuid.NAMESPACE_DNS, "report.example.org")),
    'accessibilityYesOptionId = "' + str(uuid.uuid5(uuid.NAMESPACE_DNS, "yes.example.org")) + '",',
    "_RandomAccessIterator>\n_LIBCPP_CONSTEXPR_AFTER_CXX11 ",
    'this.ultraPictureBox1.Name = "ultraPictureBox1";',
    "rapidstring:marm64-uwp=fail",
    "event-bus-message-api:rc0.15.0_20231217_1420-SNAPSHOT'",
    "COMMUNICATION_API_VERSION=rc0.13.0_20230412_0712-SNAPSHOT",
    "MantleAPI_version=" + hashlib.sha1(b"MantleAPI", usedforsecurity=False).hexdigest(),
    "[DEBUG]\t\torg.slf4j.slf4j-api:jar:1.7.8.:compile (version managed from default)",
    "[DEBUG]\t\torg.neo4j.neo4j-graphdb-api:jar:3.5.12:test",
    "apiUrl=apigee.corpint.com",
    'X-API-Name": "NRG0-Hermes-INTERNAL-API",',
    'author = "james.fake@ymail.com",',
    "X-MS-Exchange-Organization-AuthSource: sm02915.int.contoso.com",
    "Authentication-Results: 5h.ca.iphmx.com",
    "withCredentials([usernamePassword(credentialsId: '"
    + str(uuid.uuid5(uuid.NAMESPACE_DNS, "jenkins.example.org"))
    + "', usernameVariable: 'USERNAME', passwordVariable: 'PASSWORD')]) {",
    "credentialsId: '" + str(uuid.uuid5(uuid.NAMESPACE_DNS, "ci.example.org")) + "'",
    "jobCredentialsId: '" + str(uuid.uuid5(uuid.NAMESPACE_DNS, "job.example.org")) + "'",
    'environment {\n\tCREDENTIALS_ID = "K8S_CRED"\n}',
    "dev.credentials.url=dev-lb1.api.f4ke.com:5215",
    'keyword: "Befaehigung_P2"',
    "pub const X509_pubkey_st = struct_X509_pubkey_st;",
    "|| pIdxKey->default_rc==0",
    "monkeys-audio:mx64-uwp=fail",
    '<entry key="jetbrains.mps.v8_elimination" value="executed" />',
    "minisat-master-keying:x64-uwp=fail",
    "IceSSL.KeyFile=s_rsa1024_priv.pem",
    '"bucket_key": "SalesResults-1.2"',
    '<key tag="SecurityIdentifier" name="SecurityIdentifier" type="STRING" />',
    "schemaKey = 'DOC_Vector_5_32'",
    'sequenceKey = "18"',
    "app.keystore.file=env/cert.p12",
    "-DKEYTAB_FILE=/tmp/app.keytab",
    "\tdoc.Security.KeySize = PdfEncryptionKeySize.Key128Bit;",
    "o.keySelector=n,o.haKey=!1,",
    '                                "key_name": "prod5zyxlmy-cmk",',
    '                                "kms_key_id": "' + str(uuid.uuid5(uuid.NAMESPACE_DNS, "kms.example.org")) + '",',
    '\t"key_vault_name": "web21prqodx24021",',
    "  keyVaultToStoreSecrets: cmp2-qat-1208358310",
    'const validKeyChars = "0123456789abcdefghijklmnopqrstuvwxyz_-."',
    'const keyStr = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"',
    "key_length = XSalsa20.key_length",
    'pub const SN_id_Gost28147_89_None_KeyMeshing = "id-Gost28147-89-None-KeyMeshing"',
    "KeyPair = X25519.KeyPair",
    "BlindKeySignatures = Ed25519.BlindKeySignatures",
    'AVEncVideoMaxKeyframeDistance, "' + str(uuid.uuid5(uuid.NAMESPACE_DNS, "codec.example.org")) + '"',
    "            keyPressed = kVK_Return.u16",
    'timezone_mapping = {\n    "Turkey Standard Time": "Europe/Istanbul",\n}',
    "password combination.\n\nR5: Regulatory--21",
    "PuttyPassword=0",
    'LLM_SECRET_NAME = "NEXUS-GPT4-API-KEY"',
    "  <UserSecretsId>" + str(uuid.uuid5(uuid.NAMESPACE_DNS, "secrets.example.org")) + "</UserSecretsId>",
    "secret_length = X25519.secret_length",
    "secretSize must be >= XXH3_SECRET_SIZE_MIN",
    "# get build time secret for authentication\n#RUN --mount=type=secret,id=jfrog_secret \\\n"
    "#    JFROG_SECRET = $(cat /run/secrets/jfrog_secret) && \\",
    "    access_token_url='https://github.com/login/oauth/access_token',",
    '<SourceFile SourceLocation="F:\\Extracts\\" TokenFile="RTL_INST_CODE.cer">',
    'notes            = "Maven - io.jsonwebtoken:jjwt-jackson-0.11.2"',
    'clientId = "' + str(uuid.uuid5(uuid.NAMESPACE_DNS, "client.example.org")) + '"',
    "GITHUB_API_KEY=\nDYNATRACE_API_KEY=",
    "snowflake.password=\njdbc.snowflake.url=",
    "import { chain_Anvil1_Key, chain_Anvil2_Key } from '../blockchain-tests/pallets/supported-chains/consts';",
    'SRCREV_moby = "' + hashlib.sha1(b"moby", usedforsecurity=False).hexdigest() + '"',
    'LIC_FILES_CHKSUM = "file://${WORKDIR}/license.html;md5=' + hashlib.sha256(b"license.html").hexdigest()[:32] + '"',
    # github.go
    GITHUB + "x" * 36,
    "github" + "_pat_" + "x" * 22 + "_" + "x" * 59,
    "gh" + "o_" + "x" * 36,
    "gh" + "u_" + "x" * 36,
    "gh" + "s_" + "x" * 36,
    "gh" + "r_" + "x" * 36,
    # gitlab.go
    GITLAB + "X" * 11 + "-" + "X" * 8,
    GITLAB + "x" * 8 + "-" + "x" * 18 + "." + "x" * 9,
    "gl" + "ptt-" + "x" * 40,
    "GR" + "1348941" + "12312312312312312312",
    "GR" + "1348941" + "X" * 20,
    "gl" + "rt-tx_" + "x" * 27 + "." + "x" * 9,
    # grafana.go
    "gl" + "c_" + "x" * 68,
    '   API_KEY="' + "gl" + "c_" + "1" * 42 + '="',
    "static void GLC_CreateLightmapTextureArray(void);\nstatic void GLC_CreateLightmapTexturesIndividual(void);\n\n"
    "void GLC_UploadLightmap(int textureUnit, int lightmapnum);",
    "// Alias models\nvoid GLC_StateBeginUnderwaterAliasModelCaustics(texture_ref base_texture, "
    "texture_ref caustics_texture)\n{",
    "gl" + "sa_" + "X" * 32 + "_AAAAAAAA",
    # hashicorp.go
    'token        = "' + "x" * 14 + ".atlas" + "v1." + "x" * 67 + '"',
    # hashicorp_vault.go
    "  credentials: new AWS.SharedIniFileCredentials({ profile: '<YOUR_PROFILE>' })",
    "INFO 4 --- [           main] o.s.b.f.s.DefaultListableBeanFactory     : Overriding bean definition for bean",
    "s." + "x" * 24,
    "s.THISSTRINGISALLUPPERCASE",
    "s.thisstringisalllowercase",
    "s.AcceptanceTimeoutSeconds ",
    "s.makeKubeConfigController = args",
    "hv" + "s." + "x" * 94,
    # huggingface.go
    "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",
    'amazon.de#@#div[data-cel-widget="desktop-rhf_SponsoredProductsRemoteRHFSearchEXPSubsK2ClickPagination"]',
    "                            _kHMSymptomhf_generatedByHomeAppForDebuggingPurposesKey,",
    "    #define OSCHF_DebugGetExpectedAverageCrystalAmplitude NOROM_OSCHF_DebugGetExpectedAverageCrystalAmplitude",
    "  M_UINT       (ServingCellPriorityParametersDescription_t,  H_PRIO,  2, "
    "&hf_servingcellpriorityparametersdescription_h_prio),",
    "                    change_dir(cwd)\n"
    "\t\tsubdirs = glob.glob('HF_CAASIMULIAComputeServicesBuildTime.HF*.Linux64')\n\t\tif len(subdirs) == 1:",
    '        os.environ.get("HF_AUTH_TOKEN",\n\t\t"' + HUGGING_FACE + "x" * 34 + '"),',
    "# HuggingFace API Token https://huggingface.co/settings/tokens\n"
    "\t\tHUGGINGFACE_API_TOKEN=" + HUGGING_FACE + "x" * 40 + ",",
    'public static final String API_ORG_EXIST = "APIOrganizationExist";',
    "const api_org_controller = require('../../controllers/api/index').organizations;",
    'API_ORG_CREATE("https://qyapi.weixin.qq.com/cgi-bin/department/create?access_token=ACCESS_TOKEN"),',
    "def test_internal_api_org_inclusion_with_href(api_name, href, expected, monkeypatch, called_with):\n"
    '\t\tmonkeypatch.setattr("requests.sessions.Session.request", called_with)',
    "<p>You should see a token <code>" + HUGGING_FACE + "xxxxx</code> (old tokens are <code>api_XXXXXXXX</code> "
    "or <code>api_org_" + "X" * 34 + "</code>).</p>",
    "  From Hugging Face docs:\n\t\tYou should see a token " + HUGGING_FACE + "xxxxx (old tokens are api_XXXXXXXX "
    "or api_org_" + "x" * 34 + ").\n\t\tIf you do not submit your API token when sending requests to the API, "
    "you will not be able to run inference on your private models.",
    # infracost.go: a placeholder and an asset name with its content hash.
    "ic" + "o-" + "X" * 32,
    "http://assets.r7.com/assets/media_box_tv_tres_colunas/video_box.ico-"
    + hashlib.sha256(b"video_box.ico").hexdigest()[:32]
    + ".png",
    "https://explosivelab.notion.site/Pianificazione-Nerdz-Ng-pubblico-"
    + hashlib.sha256(b"Pianificazione").hexdigest()[:32]
    + "?pvs=74",
    # meraki.go: runs.
    "meraki: " + "a" * 10 + "1" * 10 + "b" * 10 + "2" * 10,
    "meraki: abdefghjk0123456789mnopqrstuvwx12345678",
    # notion.go: runs.
    "nt" + "n_12345678901",
    "nt" + "n_" + "1234567890" * 6,
    "nt" + "n_12345678901abc",
    # octopusdeploy.go
    'msgstr "GSSAPI-VIRHEKAPSELOINTIMERKKIJONO."',
    "https://sonarcloud.io/api/project_badges/measure?project=Garden-Coin_API-CalculadoraDeInvestimentos"
    "&metric=alert_status",
    "https://fog-ringer-f42.notion.site/API-" + hashlib.sha256(b"fog-ringer").hexdigest()[:32].upper(),
    '<iframe src="./archive/gifs/api-' + hashlib.sha256(b"archive.gif").hexdigest()[:26] + '.gif"> </iframe>',
    # okta.go
    "oktaKey = " + "0" * 35 + "TUVWXYZ",
    # openshift.go
    '--set kraken.kubeconfig.token.token="sha256~XXXXXXXXXX_PUT_YOUR_TOKEN_HERE_XXXXXXXXXXXX" \\',
    "oc login --token=sha256~_xxxxxx_" + "x" * 22 + "-" + "x" * 10 + "-X \\\n"
    "    --server=https://api.${zone}.appuio.cloud:6443",
    # perplexity.go, prefect.go, privateai.go, readme.go: placeholders.
    "PERPLEXITY_API_KEY=" + "pp" + "lx-" + "x" * 48,
    'PREFECT_API_KEY = "' + "pn" + "u_" + "X" * 36 + '"',
    'const privateaiToken = "' + "a" * 32 + '";',
    "const API_KEY = '" + "rd" + "me_" + "X" * 70 + "';",
    # privatekey.go: a prose body and an empty one.
    BEGIN + " " + PRIVATE_KEY + "-----\nanything\n" + END + " " + PRIVATE_KEY + "-----",
    BEGIN + " OPENSSH " + PRIVATE_KEY + "-----" + END + " OPENSSH " + PRIVATE_KEY + "-----",
    # pulumi.go: an asset name with its content hash.
    '                        <img src="./assets/vipul-'
    + hashlib.sha256(b"vipul.png").hexdigest()
    + '.png" alt="" class="w-16 h-16 rounded-full">',
    # slack.go: placeholders, runs and redactions.
    SLACK_BOT + "x" * 9 + "-" + "x" * 10 + "-" + "x" * 12,
    SLACK_BOT + "xxx",
    SLACK_BOT + "12345-abcd234",
    SLACK_BOT + "xoxb-my-bot-token",
    '"token1": "' + "xo" + "xp-1234567890" + '"',
    '"token2": "' + "xo" + "xp-" + "X" * 10 + "-" + "X" * 10 + "-" + "X" * 11 + "-" + "X" * 32 + '"',
    '"token4": "' + "xo" + "xp-572370529330-573807301142-572331691188-" + "#" * 20 + '"',
    "xo" + "xe.xoxp-1-SlackAppConfigurationAccessTokenHere",
    "xo" + "xe.xoxp-1-RANDOMSTRINGHERE",
    "xo" + "xe.xoxp-1-initial",
    "xo" + "xe-1-xxx",
    "XOxE-RROAmw, Home and Garden, 5:24, 20120323",
    SLACK_BOT + "x" * 11 + "-" + "x" * 24,
    SLACK_BOT + "Slack_BOT_TOKEN",
    SLACK_BOT + "abcdef-abcdef",
    "https://github.com/xoxa-nyc/xoxa-nyc.github.io/blob/master/README.md",
    "https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg",
    # sourcegraph.go: low entropy.
    "sg" + "p_5555555dAAAAA7777777CcccCF" + "a" * 14,
    # square.go: an image digest (computed here).
    "aws-cli@sha256:" + hashlib.sha256(b"aws-cli").hexdigest(),
    # sumologic.go
    "- (NSNumber *)sumOfProperty:(NSString *)property;",
    "- (NSInteger)sumOfValuesInRange:(NSRange)range;",
    "+ (unsigned char)byteChecksumOfData:(id)arg1;",
    "sumOfExposures = sumOfExposures;",
    ".si-sumologic.si--color::before { color: #000099; }",
    "/// Based on the SumoLogic keyword syntax:",
    'sumologic_access_id         = ""',
    "SUMOLOGIC_ACCESSID: ${SUMOLOGIC_ACCESSID}",
    "export SUMOLOGIC_ACCESSID=" + "X" * 14,
    "#   SUMO_ACCESS_KEY=" + "x" * 64,
    "-e SUMO_ACCESS_KEY=`etcdctl get /sumologic_secret`",
    "SUMO_ACCESS_KEY={SumoAccessKey}",
    "SUMO_ACCESS_KEY=${SUMO_ACCESS_KEY:=$2}",
    'sumo_access_key   = "<SUMOLOGIC ACCESS KEY>"',
    "SUMO_ACCESS_KEY: AbCeFG123",
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
    "summaries/placeholders": PLACEHOLDERS,
    "summaries/cut-off": CUT_OFF,
    "summaries/identifiers": IDENTIFIERS,
    "summaries/formats": FORMATS,
    "summaries/empty-values": EMPTY_VALUES,
    "summaries/other-languages": OTHER_LANGUAGES,
    "summaries/sessions": SESSIONS,
    "summaries/labelled-notes": LABELLED_NOTES,
    "summaries/words-after-a-key": WORDS_AFTER_A_KEY,
    "summaries/names-after-a-key": NAMES_AFTER_A_KEY,
    "passages/standard-library": STANDARD_LIBRARY,
    "passages/packages": PACKAGES,
    "gitleaks/false-positives": GITLEAKS,
}
