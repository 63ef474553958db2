"""Conversation text as people paste it to an assistant, in many languages.

Eight classes of text, each in two sides: texts that hold a credential
(expected "refuse") and texts that use the same words around none
(expected "pass"):

1. other languages: the Wi-Fi, database or API password in a sentence of
   the speaker's own language, between guillemets, after a full-width colon;
2. words between the key and its verb: an aside, a relative clause, a
   value set off by commas, a "user / password" pair after "credentials:";
3. passphrases after an explicit password key (the default output of
   password managers and Wi-Fi routers);
4. a symbol inside an unquoted value (``&`` and the other symbols that
   password generators draw from);
5. credentials passed by position in code (``login(user, "...")``);
6. tool output pasted whole (``netsh ... key=clear``, ``htpasswd -b``,
   ``mysql -p...``), with the labels in the tool's localized UI;
7. TruffleHog's classes: a hex value right after a key word, a value longer
   than 256 characters, a Jenkins ``<secret>{AQAAAB...}</secret>``;
8. the two false refusals of the issue: a regular expression describing a
   token's shape, and CJK prose naming an environment variable in Latin
   letters with no spaces around it (with, on the secret side, the same
   prose giving the variable a real value).

Nothing secret-shaped is committed: a template holds slots such as
``{pw}`` that ``cases(seed)`` fills from a seeded ``random.Random``
(passwords drawn from the character sets password managers use, passphrases
from a word list, hex and base64 tokens).  The localized words (field
labels, dialog titles, tool output) are filled per template language from
the word lists below, each with where the string appears.

A case is (id, cls, lang, template, text, expected).  The id is
``c<class>-<lang>-<nnn>`` for a secret text and ``c<class>-<lang>-n<nnn>``
for a clean one, numbered in template order within its class and language,
so an id names the same template and repetition whatever the seed.
"""

from __future__ import annotations

import base64
import random
import re
from dataclasses import dataclass

from secret_samples import ALNUM, DIGITS, HEX, LOWER, UPPER, mixed, rand

REFUSE = "refuse"
PASS = "pass"
CLASSES = {
    1: "other languages",
    2: "words between key and verb",
    3: "passphrases after a password key",
    4: "symbols inside a value",
    5: "credentials by position in code",
    6: "tool output pasted",
    7: "TruffleHog classes (hex, long, Jenkins)",
    8: "regexes and CJK env-var prose",
}
# Each template is instantiated this many times per seed (new values, and a
# new pick of the localized words where a list offers several).
REPEATS = 2

# ---------------------------------------------------------------------------
# Localized words, one list per concept; each entry as the product shows it.

# Windows `netsh wlan show profile name=<ssid> key=clear`, "Security settings"
# section: the label of the line that shows the Wi-Fi key in clear.  Taken
# from public scripts that parse this output per locale (they match these
# strings with findstr / Select-String / re.search beside "Key Content").
# ja and zh are the (literal) translations Windows ships; ko, sv, tr as
# quoted in the same kind of scripts.
NETSH_KEY_CONTENT = {
    "en": ["Key Content"],
    "fr": ["Contenu de la clé"],
    "es": ["Contenido de la clave"],
    "pt": ["Conteúdo da Chave"],
    "de": ["Schlüsselinhalt"],
    "nl": ["Sleutelinhoud"],
    "pl": ["Zawartość klucza"],
    "ru": ["Содержимое ключа"],
    "zh": ["关键内容"],
    "ja": ["主要なコンテンツ"],
    "it": ["Contenuto chiave"],
    "tr": ["Anahtar İçeriği"],
    "sv": ["Nyckelinnehåll"],
    "ko": ["키 콘텐츠"],
}
# The same netsh output: the profile line above it ("All User Profile" in
# `netsh wlan show profiles`, "Name" in the profile) and the security key
# presence line ("Security key : Present / Absent").
NETSH_SECURITY_KEY = {
    "en": ["Security key"],
    "fr": ["Clé de sécurité"],
    "es": ["Clave de seguridad"],
    "pt": ["Chave de segurança"],
    "de": ["Sicherheitsschlüssel"],
    "nl": ["Beveiligingssleutel"],
    "pl": ["Klucz zabezpieczeń"],
    "ru": ["Ключ безопасности"],
    "zh": ["安全密钥"],
    "ja": ["セキュリティ キー"],
    "it": ["Chiave di sicurezza"],
    "tr": ["Güvenlik anahtarı"],
    "sv": ["Säkerhetsnyckel"],
    "ko": ["보안 키"],
}
NETSH_PRESENT = {
    "en": "Present",
    "fr": "Présent",
    "es": "Presente",
    "pt": "Presente",
    "de": "Vorhanden",
    "nl": "Aanwezig",
    "pl": "Obecny",
    "ru": "Присутствует",
    "zh": "存在",
    "ja": "あり",
    "it": "Presente",
    "tr": "Var",
    "sv": "Finns",
    "ko": "있음",
}
NETSH_ABSENT = {
    "en": "Absent",
    "fr": "Absent",
    "es": "Ausente",
    "pt": "Ausente",
    "de": "Nicht vorhanden",
    "nl": "Afwezig",
    "pl": "Nieobecny",
    "ru": "Отсутствует",
    "zh": "不存在",
    "ja": "なし",
    "it": "Assente",
    "tr": "Yok",
    "sv": "Saknas",
    "ko": "없음",
}
# Windows Wi-Fi adapter "Wireless Network Properties" > Security tab: the
# field "Network security key" (and the Windows 10/11 connect prompt "Enter
# the network security key").
NETWORK_SECURITY_KEY = {
    "en": ["network security key"],
    "fr": ["clé de sécurité réseau"],
    "es": ["clave de seguridad de red"],
    "pt": ["chave de segurança da rede"],
    "de": ["Netzwerksicherheitsschlüssel"],
    "nl": ["netwerkbeveiligingssleutel"],
    "pl": ["klucz zabezpieczeń sieci"],
    "ru": ["ключ безопасности сети"],
    "zh": ["网络安全密钥"],
    "ja": ["ネットワーク セキュリティ キー"],
    "it": ["chiave di sicurezza di rete"],
    "tr": ["ağ güvenlik anahtarı"],
    "sv": ["nätverkssäkerhetsnyckel"],
    "ko": ["네트워크 보안 키"],
}
# The "Password" field of a login item: Bitwarden's web vault and browser
# extension (its translations on Crowdin), 1Password, KeePass's entry dialog,
# and the macOS Keychain Access "Show password" checkbox.
PASSWORD_FIELD = {
    "en": ["password", "Password"],
    "fr": ["mot de passe"],
    "es": ["contraseña"],
    "pt": ["senha"],
    "de": ["Passwort", "Kennwort"],
    "nl": ["wachtwoord"],
    "pl": ["hasło"],
    "ru": ["пароль"],
    "zh": ["密码"],
    "ja": ["パスワード"],
    "it": ["password"],
    "tr": ["şifre", "parola"],
    "sv": ["lösenord"],
    "ko": ["비밀번호", "암호"],
}
# Router admin pages, wireless security section: AVM FRITZ!Box "WLAN-
# Netzwerkschlüssel", Freebox / Livebox "Clé WPA" and "Clé de sécurité",
# Movistar / TP-Link Spanish UI "Clave WPA" / "Contraseña inalámbrica",
# Brazilian ISP routers (Vivo, TP-Link pt-BR) "Chave de segurança" /
# "Senha do Wi-Fi", TP-Link Polish UI "Hasło sieci bezprzewodowej",
# TP-Link English "Wireless Password", Keenetic Russian UI "Ключ сети".
ROUTER_KEY = {
    "en": ["Wireless Password", "WPA Pre-Shared Key"],
    "fr": ["Clé WPA", "Clé de sécurité"],
    "es": ["Clave WPA", "Contraseña inalámbrica"],
    "pt": ["Chave de segurança", "Senha do Wi-Fi"],
    "de": ["WLAN-Netzwerkschlüssel", "WPA-Schlüssel"],
    "nl": ["WPA-sleutel", "Wifi-wachtwoord"],
    "pl": ["Hasło sieci bezprzewodowej", "Hasło"],
    "ru": ["Ключ сети", "Пароль Wi-Fi"],
    "zh": ["无线密码", "WPA 密钥"],
    "ja": ["暗号化キー", "パスワード（PSK）"],
    "it": ["Chiave WPA", "Password Wi-Fi"],
    "tr": ["WPA Anahtarı", "Kablosuz Şifresi"],
    "sv": ["WPA-nyckel", "Lösenord för trådlöst nätverk"],
    "ko": ["무선 비밀번호", "WPA 키"],
}
# "API key" as the localized consoles of Google Cloud ("API-Schlüssel",
# "clé API", "clave de API", "chave de API", "API 密钥", "API キー") and
# Azure portal write it; nl, pl, ru, it, tr, sv, ko from the same consoles.
API_KEY_WORD = {
    "en": ["API key"],
    "fr": ["clé API", "clé d'API"],
    "es": ["clave de API", "clave API"],
    "pt": ["chave de API", "chave da API"],
    "de": ["API-Schlüssel", "API-Key"],
    "nl": ["API-sleutel"],
    "pl": ["klucz API"],
    "ru": ["API-ключ", "ключ API"],
    "zh": ["API 密钥", "API密钥"],
    "ja": ["APIキー", "API キー"],
    "it": ["chiave API"],
    "tr": ["API anahtarı"],
    "sv": ["API-nyckel"],
    "ko": ["API 키"],
}
LOCALIZED = {
    "netsh_key": NETSH_KEY_CONTENT,
    "netsh_sec": NETSH_SECURITY_KEY,
    "net_key": NETWORK_SECURITY_KEY,
    "pw_word": PASSWORD_FIELD,
    "router_key": ROUTER_KEY,
    "api_word": API_KEY_WORD,
}

# ---------------------------------------------------------------------------
# Value generators: what a template's secret slots are filled with.

# Common English words of the kind the EFF large wordlist holds (Bitwarden's
# passphrase generator draws from that list); this subset is chosen by hand.
WORDS = (  # noqa: SIM905 - as a list literal, 200 words would take 200 lines
    "acorn agenda alarm almond anchor angle apron arcade armor atlas attic autumn bacon badge bagel "
    "ballot bamboo banjo barley basket beacon bench bicycle blanket blender bonfire bracket breeze "
    "bucket buffalo cabin cactus camera canal candle canyon carbon cargo carpet castle cedar cello "
    "chalk cherry chimney cider cinema citrus clover cobalt comet copper coral cotton crayon cricket "
    "crystal cushion dagger denim desert dinner dolphin donkey dragon drizzle eagle easel echo "
    "elbow ember engine falcon fender ferry fiddle flannel flute fossil gadget galaxy garnet gecko "
    "ginger glacier goblet gravel guitar hammock harbor harvest hazel helmet hermit hickory honey "
    "iceberg igloo island ivory jacket jasmine jigsaw jungle kayak kettle kiwi ladder lagoon lantern "
    "lemon lilac lobster locket lumber magnet mango marble meadow mitten mosaic muffin nectar "
    "nickel noodle nutmeg oasis octopus olive orbit orchid otter paddle pajamas panda papaya "
    "parade pebble pepper pickle pigeon pillow pistol plaza pocket pony poppy pretzel pumpkin "
    "quartz quiver rabbit radar raisin ranch raven ribbon rocket saddle salmon sandal scooter "
    "shovel silver sketch sleet spruce squid stapler strudel summit sunset tadpole tango "
    "thistle timber toffee tractor trumpet tulip tundra turnip tuxedo umbrella unicorn valley "
    "velvet violin walnut walrus wasabi willow wizard yacht yodel zebra zipper"
).split()
# Bitwarden's generator: "Special characters (!@#$%^&*)" (help page
# "Username and password generator").  KeePass's generator (help page
# "Password Generator"): Special !"#$%&'*+,./:;=?@\^`|~ , Minus, Underline,
# Brackets ()[]{}<>.  A symbol from KEEPASS_CUTTING is the kind that ends an
# unquoted value early when read as a terminator.
BITWARDEN_SPECIAL = "!@#$%^&*"
KEEPASS_SPECIAL = "!\"#$%&'*+,./:;=?@\\^`|~-_()[]{}<>"
KEEPASS_CUTTING = "&;,()<>{}[]|`"


def manager_password(rng: random.Random) -> str:
    """Bitwarden's or 1Password's default shape: 14 to 20 characters, both
    cases, digits and two of Bitwarden's symbols other than "&" (a value
    holding one is class 4's, measured there)."""
    body = list(mixed(ALNUM, rng.randint(12, 18), rng))
    for _ in range(2):
        body.insert(rng.randint(1, len(body)), rng.choice(BITWARDEN_SPECIAL.replace("&", "")))
    return "".join(body)


def cut_password(rng: random.Random) -> str:
    """A KeePass-style password with a symbol that ends a value early placed
    within its first six characters (where a value cut there reads too short)."""
    body = mixed(ALNUM, rng.randint(13, 18), rng)
    at = rng.randint(2, 5)
    return body[:at] + rng.choice(KEEPASS_CUTTING) + body[at:]


def amp_password(rng: random.Random) -> str:
    """A Bitwarden-style password holding "&" early (the symbol a URL's query
    string ends a value with)."""
    body = mixed(ALNUM, rng.randint(12, 18), rng)
    at = rng.randint(2, 5)
    return body[:at] + "&" + body[at:] + rng.choice("!@#$%^*")


def all_symbols_password(rng: random.Random) -> str:
    """KeePass's and 1Password's password with every symbol allowed: 16 to
    22 characters, three to five of them symbols, anywhere, the first
    included, two of them symbols that end a value in some syntax (quotes
    and the backslash left out: they end or escape a value)."""
    symbols = KEEPASS_SPECIAL.translate(str.maketrans("", "", "\"'`\\"))
    body = list(mixed(ALNUM, rng.randint(13, 17), rng))
    drawn = [rng.choice(KEEPASS_CUTTING.replace("`", "")) for _ in range(2)]
    drawn += [rng.choice(symbols) for _ in range(rng.randint(1, 3))]
    for symbol in drawn:
        body.insert(rng.randint(0, len(body)), symbol)
    return "".join(body)


def passphrase(rng: random.Random, sep: str, count: int = 3, digit: bool = False, cap: bool = False) -> str:
    """Bitwarden's passphrase (three words joined by "-" by default, with
    options to capitalize and to add a number) and 1Password's memorable
    password (separators "-", ".", "_", ",")."""
    words = [rng.choice(WORDS) for _ in range(count)]
    if cap:
        words = [word.capitalize() for word in words]
    if digit:
        at = rng.randrange(count)
        words[at] += rng.choice(DIGITS)
    return sep.join(words)


def router_default(rng: random.Random) -> str:
    """A Netgear-label default Wi-Fi password: two words and three digits."""
    return rng.choice(WORDS) + rng.choice(WORDS) + rand(DIGITS, 3, rng)


def long_token(rng: random.Random) -> str:
    """A base64url token of 300 to 420 characters (a JWT-sized session blob)."""
    return mixed(ALNUM + "-_", rng.randint(300, 420), rng)


def jenkins_secret(rng: random.Random) -> str:
    """Jenkins' credentials.xml encrypted form: "{" + base64 of a blob that
    starts with version byte 1 and the IV length, then "}" (AQAAABAAAA...)."""
    blob = bytes([1, 0, 0, 0, 16, 0, 0, 0]) + rng.randbytes(rng.choice((32, 48, 64)))
    return "{" + base64.b64encode(blob).decode() + "}"


def b64_secret(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(rng.choice((24, 30, 33)))).decode()


def account_sid(rng: random.Random) -> str:
    """An account id of the Twilio kind: "AC" and 32 hex digits."""
    return "AC" + rand(HEX, 32, rng)


# Names that fill the non-secret slots: committed as they are.
USERS = ("admin", "alice", "deploy", "root", "svc_backup", "marta", "jkowalski", "dev", "ops")
HOSTS = ("db01.internal", "10.0.3.12", "nas.local", "mail.example.org", "staging-db", "192.168.1.20")
SSIDS = ("Livebox-7A21", "FRITZ!Box 7590 QK", "MOVISTAR_2B4F", "TP-Link_5G_9E10", "Casa Silva", "UPC4412207")

VALUES = {
    "pw": manager_password,
    "pwamp": amp_password,
    "pwcut": cut_password,
    "pwall": all_symbols_password,
    "phrase": lambda rng: passphrase(rng, "-"),
    "phrase_dot": lambda rng: passphrase(rng, "."),
    "phrase_us": lambda rng: passphrase(rng, "_"),
    "phrase_comma": lambda rng: passphrase(rng, ","),
    "phrase_num": lambda rng: passphrase(rng, "-", digit=True),
    "phrase_cap": lambda rng: passphrase(rng, "-", digit=True, cap=True),
    "phrase4": lambda rng: passphrase(rng, rng.choice("-._"), count=4),
    "router_pw": router_default,
    "hex32": lambda rng: mixed(HEX, 32, rng),
    "HEX32": lambda rng: mixed(HEX, 32, rng).upper(),
    "hex40": lambda rng: mixed(HEX, 40, rng),
    "hex64": lambda rng: mixed(HEX, 64, rng),
    "tok": lambda rng: mixed(ALNUM, rng.randint(32, 40), rng),
    "b64": b64_secret,
    "longtok": long_token,
    "jenkins": jenkins_secret,
    "sid": account_sid,
    "user": lambda rng: rng.choice(USERS),
    "host": lambda rng: rng.choice(HOSTS),
    "ssid": lambda rng: rng.choice(SSIDS),
    "num": lambda rng: str(rng.randint(2, 90)),
}
SECRET_SLOTS = frozenset(VALUES) - {"user", "host", "ssid", "num"}
# A slot is one name in single braces; doubled braces are literal braces.
SLOT = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z_0-9]*)\}(?!\})")

# ---------------------------------------------------------------------------
# Templates: (language, text).  Slots: {name} of VALUES, or of LOCALIZED
# (filled in the template's language; {Pw_word} capitalizes the word).

SECRET: dict[int, list[tuple[str, str]]] = {}
CLEAN: dict[int, list[tuple[str, str]]] = {}

SECRET[1] = [
    ("fr", "le {pw_word} du wifi c'est {pw} (je l'ai changé hier)"),
    ("fr", "Salut ! Le {pw_word} de la base de données : {pw}"),
    ("fr", "J'ai changé le {pw_word} en {pw}, tu peux mettre à jour le .env ?"),
    ("fr", "La {api_word} : {tok}"),
    ("fr", "le {pw_word} est « {pw} » mais il ne marche plus"),
    ("fr", "{Router_key} : {router_pw}"),
    ("es", "la {pw_word} del wifi es {pw}"),
    ("es", "La {pw_word} de la base de datos: {pw}"),
    ("es", "Cambié la {pw_word} a {pw} y ahora no conecta, ayuda"),
    ("es", "mi {api_word} es {tok}, por qué da 401?"),
    ("es", "{Router_key}: {router_pw}"),
    ("pt", "a {pw_word} do wi-fi é {pw}"),
    ("pt", "A {pw_word} do banco de dados: {pw}"),
    ("pt", "Mudei a {pw_word} para {pw} mas o app continua falhando"),
    ("pt", "A {api_word} é {tok}"),
    ("pt", "{Router_key}: {router_pw}"),
    ("de", "Das WLAN-{Pw_word} ist {pw}"),
    ("de", "Datenbank-{Pw_word}: {pw}"),
    ("de", "ich hab das {Pw_word} auf {pw} geändert"),
    ("de", "Der {api_word} ist {tok}"),
    ("de", "{Router_key}: {router_pw} (steht auf der Rückseite)"),
    ("nl", "het wifi-{pw_word} is {pw}"),
    ("nl", "Het {pw_word} van de database: {pw}"),
    ("nl", "Ik heb het {pw_word} veranderd in {pw}"),
    ("nl", "De {api_word} is {tok}"),
    ("pl", "{Pw_word} do wifi to {pw}"),
    ("pl", "{Pw_word} do bazy danych: {pw}"),
    ("pl", "zmieniłem {pw_word} na {pw} i dalej nie działa"),
    ("pl", "Mój {api_word}: {tok}"),
    ("ru", "{Pw_word} от вайфая: {pw}"),
    ("ru", "{Pw_word} от базы данных — {pw}"),
    ("ru", "Я поменял {pw_word} на {pw}, но сервис не стартует"),
    ("ru", "{Api_word}: {tok}"),
    ("ru", "{Pw_word} от роутера «{pw}»"),
    ("zh", "WiFi{pw_word}是{pw}"),
    ("zh", "数据库{pw_word}：{pw}"),
    ("zh", "我把{pw_word}改成了{pw}，还是连不上"),
    ("zh", "{api_word}：{tok}"),
    ("ja", "Wi-Fiの{pw_word}は{pw}です"),
    ("ja", "データベースの{pw_word}：{pw}"),
    ("ja", "{pw_word}を{pw}に変更しました"),
    ("ja", "{api_word}は {tok} です"),
    ("it", "la {pw_word} del wifi è {pw}"),
    ("it", "{Pw_word} del database: {pw}"),
    ("it", "ho cambiato la {pw_word} in {pw}"),
    ("tr", "wifi {pw_word}si: {pw}"),
    ("tr", "Veritabanı {pw_word}si {pw} olarak değişti"),
    ("sv", "{Pw_word} till wifi: {pw}"),
    ("sv", "Jag ändrade {pw_word}et till {pw}"),
    ("ko", "와이파이 {pw_word}는 {pw}입니다"),
    ("ko", "DB {pw_word}： {pw}"),
    ("fr", "{Pw_word} : « {phrase} »"),
    ("es", "la {pw_word} es «{pw}»"),
    ("de", "Passwort：{pw}"),
    ("ja", "{Net_key}：{pw}"),
    ("es", "Oye, la {pw_word} nueva del servidor de correo es {pw}"),
    ("pt", "Troquei a {pw_word} do roteador para {pw} ontem à noite"),
    ("it", "{Pw_word} per il NAS: {pw}"),
    ("fr", "Voici le {pw_word} pour la VM de test : {pw}"),
    ("nl", "API-sleutel voor staging: {tok}"),
    ("pl", "Klucz WPA: {router_pw}"),
    ("sv", "API-nyckel: {tok}"),
    ("fr", "{Pw_word} modifié : {pw}"),
    ("es", "Te paso la {pw_word} actual: {pw}"),
    ("pt", "A {pw_word} foi alterada para {pw}"),
    ("it", "la {pw_word} temporanea è {pw}, cambiala al primo accesso"),
    ("nl", "Het {pw_word} is gewijzigd naar {pw}"),
    ("pl", "{Pw_word} tymczasowe do konta: {pw}"),
    ("ru", "{Pw_word} изменён на {pw}"),
    ("sv", "{Pw_word}et är ändrat till {pw}"),
    ("es", "La {pw_word} se cambió a {pw}"),
    # A key, what it is for and the value after a space, no verb or sign:
    # notes, chat, and languages that leave "is" out (Russian).
    ("ru", "{Pw_word} от вайфая {pw}"),
    ("ru", "{pw_word} от роутера {pw} если что"),
    ("fr", "{pw_word} wifi {pw}"),
    ("es", "{pw_word} del wifi {pw} por si acaso"),
    ("pl", "{pw_word} do wifi {pw}"),
    ("nl", "{pw_word} wifi {pw}"),
    ("pt", "{pw_word} do wifi {pw}"),
    ("it", "{pw_word} del wifi {pw}"),
    # Words chats use for a password, an access code or a token: "mdp"
    # (French forums' mot de passe), "비번" (Korean chat's 비밀번호), a
    # captive portal's or guest network's access code, a console's access
    # token and "API-nyckeln" (the Swedish console's key, in its definite
    # form), "Wi-Fiのキー" (a Japanese router manual's Wi-Fi key).
    ("fr", "bonjour le nouveau mdp du routeur : {pw} :)"),
    ("fr", "mdp admin = {pw} (le dis à personne lol)"),
    ("fr", "salut, le code d'accès du portail c'est {pw}"),
    ("es", "el código de acceso del portal es {pw}, no me deja entrar"),
    ("de", "Zugangscode fürs Gäste-WLAN: {pw}"),
    ("ru", "код доступа: {pw}"),
    ("ru", "токен доступа: {tok}"),
    ("ko", "액세스 토큰: {tok}"),
    ("ja", "アクセストークンは {tok} です どうすればいい？"),
    ("ko", "공유기 비번 {pw} 👍"),
    ("sv", "API-nyckeln: {tok}"),
    ("ja", "Wi-Fiのキー：{pw}"),
    # A value between corner brackets (Japanese, Chinese) or guillemets
    # with spaces inside, after a key and words about it.
    ("ja", "{pw_word}は「{pw}」です。なぜ弾かれるのでしょうか"),
    ("zh", "{pw_word}是『{pw}』，为什么连不上？"),
    ("ru", "{Pw_word} к wifi « {pw} »"),
    # The Windows Wi-Fi dialog's "network security key", copied with its label.
    *((lang, "{Net_key}: {pw}") for lang in ("fr", "es", "pt", "it", "pl", "ru", "tr")),
    # Conversation summaries, written about the user: a value glued to its
    # key where the script has no spaces, a French elision, a corner quote.
    ("zh", "用户提供了数据库{pw_word}{pw}，并询问为什么连接失败。"),
    ("ja", "ユーザーはWi-Fiの{pw_word}{pw}を共有しました。"),
    ("fr", "La clé API de l'utilisateur est {tok}."),
    ("ja", "{pw_word}は「{pwall}」です。なぜ弾かれるのでしょうか"),
    # The password a change will set, in the future tense ("will be"), and
    # key words typed without their letters on a keyboard that lacks them.
    ("es", "ojo: a partir del lunes la nueva contraseña será {pw}"),
    ("fr", "à partir de demain le mot de passe du wifi sera {pw}"),
    ("de", "ab Montag wird das neue WLAN-Passwort {pw} heißen, nur zur Info: das Passwort wird {pw}"),
    ("pt", "a senha do roteador vai ser {pw} depois da troca"),
    ("it", "dalla settimana prossima la password sarà {pw}"),
    ("pl", "od jutra hasło będzie {pw}, zapisz sobie"),
    ("ru", "после обновления пароль будет {pw}"),
    ("zh", "下周开始新的WiFi密码将是{pw}"),
    ("en", "heads up, from monday the vpn password will be {pw}"),
    ("es", "la contrasena del wifi es {pw} jaja"),
    ("pl", "haslo do wifi to {pw}"),
    ("pl", "hej, haslo do routera: {pw}"),
    ("en", "the pasword for the printer admin page is {pw}"),
    ("fr", "le mdp du wifi cest {pw} lol"),
    ("tr", "Kullanıcı ev Wi-Fi şifresini ({pw}) paylaştı ve yazıcıyı sordu."),
    ("tr", "modemin sifresini {pw} yaptım"),
    # More key words typed without their letters or mistyped, and "pass"
    # after the service it is for.
    ("sv", "losenord till wifi: {pw}"),
    ("de", "WLAN-Schluessel: {pw} (steht auch auf der Rückseite)"),
    ("tr", "modem sifre: {pw}"),
    ("en", "new passowrd for the shared drive: {pw}"),
    ("en", "ok the passwrod is {pw} now lmk"),
    ("en", "my gmail pass is {pw} can you tell if it's in a breach"),
    ("en", "nas pass: {pw}"),
    ("it", "la password del modem e' {pw}"),
]
CLEAN[1] = [
    ("fr", "le {pw_word} du wifi est sur l'étiquette sous la box"),
    ("fr", "Le {pw_word} de la base de données doit faire au moins 16 caractères."),
    ("fr", "J'ai changé le {pw_word} hier, pense à mettre à jour ton gestionnaire."),
    ("fr", "La {api_word} se trouve dans la console, onglet Identifiants."),
    ("fr", "le {pw_word} est « celui du coffre-fort Bitwarden »"),
    ("fr", "{Router_key} : voir la carte fournie avec la Livebox"),
    ("es", "la {pw_word} del wifi está en la pegatina del router"),
    ("es", "La {pw_word} de la base de datos se rota cada 90 días."),
    ("es", "Cambié la {pw_word} y ahora tengo que reiniciar el servicio"),
    ("es", "¿dónde guardo la {api_word}? ¿en un .env o en el gestor de secretos?"),
    ("es", "{Router_key}: la que viene impresa en la etiqueta"),
    ("pt", "a {pw_word} do wi-fi está no adesivo do roteador"),
    ("pt", "A {pw_word} do banco de dados: pergunte ao DBA"),
    ("pt", "Mudei a {pw_word} ontem, o app voltou a funcionar"),
    ("pt", "A {api_word} fica em Configurações > Integrações"),
    ("pt", "{Router_key}: <sua-senha>"),
    ("de", "Das WLAN-{Pw_word} steht auf der Rückseite der FRITZ!Box."),
    ("de", "Datenbank-{Pw_word}: bitte im Tresor nachsehen"),
    ("de", "ich hab das {Pw_word} geändert, jetzt geht der Login wieder"),
    ("de", "Der {api_word} wurde widerrufen und neu erstellt."),
    ("de", "{Router_key}: ********"),
    ("nl", "het wifi-{pw_word} staat op de sticker"),
    ("nl", "Het {pw_word} van de database wordt elke maand vervangen."),
    ("nl", "Ik heb het {pw_word} veranderd, het werkt weer"),
    ("nl", "De {api_word} staat in de secrets van de pipeline"),
    ("pl", "{Pw_word} do wifi jest na naklejce pod routerem"),
    ("pl", "{Pw_word} do bazy danych: zapytaj admina"),
    ("pl", "zmieniłem {pw_word} i teraz działa"),
    ("pl", "Mój {api_word} wygasł, trzeba wygenerować nowy"),
    ("ru", "{Pw_word} от вайфая написан на наклейке роутера"),
    ("ru", "{Pw_word} от базы данных — в хранилище секретов"),
    ("ru", "Я поменял {pw_word}, теперь всё работает"),
    ("ru", "{Api_word}: <ваш-ключ>"),
    ("ru", "{Pw_word} от роутера «по умолчанию», его надо сменить"),
    ("zh", "WiFi{pw_word}在路由器背面的标签上"),
    ("zh", "数据库{pw_word}：请向管理员索取"),
    ("zh", "我把{pw_word}改了，现在可以连上了"),
    ("zh", "{api_word}：在控制台的凭据页面生成"),
    ("ja", "Wi-Fiの{pw_word}はルーターの裏に書いてあります"),
    ("ja", "データベースの{pw_word}：管理者に確認してください"),
    ("ja", "{pw_word}を変更しました。再起動が必要です"),
    ("ja", "{api_word}は環境変数から読み込みます"),
    ("it", "la {pw_word} del wifi è sull'etichetta del modem"),
    ("it", "{Pw_word} del database: chiedi a Marco"),
    ("it", "ho cambiato la {pw_word}, ora funziona"),
    ("tr", "wifi {pw_word}si modemin arkasında yazıyor"),
    ("tr", "Veritabanı {pw_word}si değişti, servisi yeniden başlat"),
    ("sv", "{Pw_word} till wifi står på routern"),
    ("sv", "Jag ändrade {pw_word}et i går"),
    ("ko", "와이파이 {pw_word}는 공유기 뒷면에 있습니다"),
    ("ko", "DB {pw_word}： 관리자에게 문의하세요"),
    ("fr", "{Pw_word} : « à demander à l'accueil »"),
    ("es", "la {pw_word} es «la de siempre»"),
    ("de", "Passwort：siehe Tresor"),
    ("ja", "{Net_key}：ルーターのラベルを参照"),
    ("es", "Oye, la {pw_word} nueva del servidor de correo es la que te mandé por Signal"),
    ("pt", "Troquei a {pw_word} do roteador para uma mais forte ontem à noite"),
    ("it", "{Pw_word} per il NAS: chiedila a Giulia"),
    ("fr", "Voici le {pw_word} pour la VM de test : dans le coffre partagé"),
    ("pl", "Polityka: {pw_word} do konta admina zmieniamy co 90 dni"),
    ("nl", "De API-sleutel is verlopen, vraag een nieuwe aan"),
    ("de", "Der API-Schlüssel: siehe Tresor, Eintrag Produktion"),
    ("ja", "APIキーは環境変数API_KEYに入れてください"),
    ("fr", "{Pw_word} modifié : pense à te reconnecter partout"),
    ("es", "Te paso la {pw_word} actual por Signal, no por aquí"),
    ("pt", "A {pw_word} foi alterada para cumprir a nova política"),
    ("it", "la {pw_word} temporanea è scaduta, chiedine una nuova"),
    ("nl", "Het {pw_word} is gewijzigd naar aanleiding van het incident"),
    ("pl", "{Pw_word} tymczasowe do konta: wysłane SMS-em"),
    ("ru", "{Pw_word} изменён на более длинный"),
    ("sv", "{Pw_word}et är ändrat till något längre nu"),
    ("es", "La {pw_word} se cambió a principios de mes"),
    # The same words before a network's name, a model or a number.
    ("ru", "{Pw_word} от вайфая {ssid} не подходит"),
    ("ru", "{pw_word} от вайфая 5 ГГц другой"),
    ("fr", "{pw_word} wifi {ssid} introuvable"),
    ("es", "{pw_word} del wifi 5G distinta"),
    ("pl", "{pw_word} do wifi {ssid} nie działa"),
    ("nl", "{pw_word} wifi {ssid} werkt niet"),
    ("pt", "{pw_word} do wifi {ssid} não funciona"),
    ("it", "{pw_word} del wifi {ssid} non funziona"),
    # The same words around no value.
    ("fr", "bonjour, j'ai oublié le mdp du routeur, comment le réinitialiser ?"),
    ("fr", "mdp admin = celui du coffre, demande à Paul"),
    ("fr", "salut, le code d'accès du portail c'est celui reçu par SMS"),
    ("es", "el código de acceso del portal es el que llega por correo"),
    ("de", "Zugangscode fürs Gäste-WLAN: steht auf dem Zettel am Kühlschrank"),
    ("ru", "код доступа: придёт в SMS через минуту"),
    ("ru", "токен доступа истёк, как его обновить?"),
    ("ko", "액세스 토큰: 환경 변수에서 읽어요"),
    ("ja", "アクセストークンは環境変数から読み込みます"),
    ("ko", "공유기 비번 까먹었어요 ㅠㅠ 초기화 방법 있나요?"),
    ("sv", "API-nyckeln: finns i valvet"),
    ("ja", "Wi-Fiのキー：ルーターの裏のラベルを見てください"),
    ("ja", "{pw_word}は「いつもの」です。なぜ弾かれるのでしょうか"),
    ("zh", "{pw_word}是『生日加名字』，为什么连不上？"),
    ("ru", "{Pw_word} к wifi « на наклейке роутера »"),
    ("fr", "{Net_key} : voir l'étiquette sous la box"),
    ("es", "{Net_key}: la que viene en la pegatina del router"),
    ("pt", "{Net_key}: está no adesivo do roteador"),
    ("it", "{Net_key}: è sull'etichetta del modem"),
    ("pl", "{Net_key}: jest na naklejce routera"),
    ("ru", "{Net_key}: смотрите наклейку на роутере"),
    ("tr", "{Net_key}: modemin arkasında yazıyor"),
    ("zh", "用户提供了数据库{pw_word}，并询问为什么连接失败。"),
    ("zh", "我忘记了WiFi{pw_word}ABC-123怎么办"),
    ("ja", "ユーザーはWi-Fiの{pw_word}リセット方法を尋ねました。"),
    ("fr", "La clé API de l'utilisateur est révoquée."),
    ("ja", "{pw_word}は「保管庫にあります」"),
    # Japanese and Chinese end a value where their script starts again.
    ("ja", "{pw_word}はadminですか？"),
    ("zh", "{pw_word}是admin吗？"),
    ("es", "ojo: a partir del lunes la nueva contraseña será más larga"),
    ("fr", "à partir de demain le mot de passe du wifi sera affiché à l'accueil"),
    ("de", "ab Montag wird das neue WLAN-Passwort per Mail verschickt"),
    ("pt", "a senha do roteador vai ser trocada na segunda"),
    ("it", "dalla settimana prossima la password sarà obbligatoria"),
    ("pl", "od jutra hasło będzie wymagane przy logowaniu"),
    ("ru", "после обновления пароль будет сброшен"),
    ("zh", "下周开始新的WiFi密码将是十二位"),
    ("en", "heads up, from monday the vpn password will be rotated monthly"),
    ("es", "la contrasena del wifi es la de siempre jaja"),
    ("pl", "haslo do wifi to to samo co zawsze"),
    ("pl", "hej, haslo do routera: na naklejce"),
    ("en", "the pasword for the printer admin page is on the sticker"),
    ("fr", "le mdp du wifi cest le meme qu'avant lol"),
    ("tr", "Kullanıcı ev Wi-Fi şifresini (doğum tarihi) paylaştı ve yazıcıyı sordu."),
    ("tr", "modemin sifresini değiştirdim"),
    ("sv", "losenord till wifi: fråga Anna"),
    ("de", "WLAN-Schluessel: steht auf der Rückseite"),
    ("tr", "modem sifre: etikette yazıyor"),
    ("en", "new passowrd for the shared drive: sent via signal"),
    ("en", "ok the passwrod is reset now lmk"),
    ("en", "my gmail pass is saved in chrome, can you tell if it's in a breach"),
    ("en", "nas pass: in the vault under Storage"),
    ("it", "la password del modem e' sull'etichetta"),
]

SECRET[2] = [
    ("en", "The API key, which I copied from the dashboard this morning, was {tok}"),
    ("en", "the admin password, {pw}, stopped working after the upgrade"),
    ("en", "credentials: {user} / {pw}"),
    ("en", "The API key (the staging one, not prod) is {tok}"),
    ("en", "our db password — the one Sam set last week — is {pw}"),
    ("en", "The token that the CI uses to push images is {tok}"),
    ("en", "admin password for the NAS, just in case: {pw}"),
    ("en", "The API key I was given by the vendor is {tok}, is that the right format?"),
    ("en", "Credentials:\n  {user} / {pw}\n  (same for the backup box)"),
    ("en", "the root password, as far as I remember, is {pw}"),
    ("en", "The password for the shared mailbox, if it helps, was {pw}"),
    ("en", "**credentials:** `{user}` / `{pw}`"),
    ("en", "login: {user}, password {pw} - can you check why ssh refuses it?"),
    ("en", "The secret key that Django generated for us is {tok}"),
    ("en", "so the API key that I pasted in settings.py yesterday was {tok} and now it 403s"),
    ("fr", "Le {pw_word} admin, {pw}, ne marche plus"),
    ("fr", "La {api_word} que le support m'a envoyée est {tok}"),
    ("fr", "identifiants : {user} / {pw}"),
    ("es", "La {pw_word} del admin, {pw}, ya no sirve"),
    ("es", "credenciales: {user} / {pw}"),
    ("es", "La {api_word} que me dio el proveedor es {tok}"),
    ("pt", "A {pw_word} do admin, {pw}, parou de funcionar"),
    ("pt", "credenciais: {user} / {pw}"),
    ("de", "Das {Pw_word}, das mir der Admin geschickt hat, ist {pw}"),
    ("de", "Zugangsdaten: {user} / {pw}"),
    ("nl", "Het admin-{pw_word}, {pw}, werkt niet meer"),
    ("pl", "{Pw_word} admina, {pw}, przestało działać"),
    ("ru", "{Pw_word} админа, {pw}, больше не подходит"),
    ("ru", "учётные данные: {user} / {pw}"),
    ("it", "La {pw_word} dell'admin, {pw}, non funziona più"),
    ("en", "The API key — fresh from the console — is {tok}"),
    ("en", "the password for root on {host} (yes I know) is {pw}"),
    ("en", "The Wi-Fi password, in case you need it tonight, is {pw}"),
    ("en", "the deploy token (the one with write access) was {tok}"),
    ("de", "Das Passwort für den Router, falls du es brauchst, lautet {pw}"),
    ("es", "login: {user} / {pw}"),
    ("fr", "Le mot de passe que Julien a mis sur le NAS est {pw}"),
    # A word or three about whose key it is, then ":", an arrow or "is".
    ("nl", "{Pw_word} database: {pw}"),
    ("it", "{pw_word} wifi di casa: {pw} perché il telefono non si collega?"),
    ("es", "{pw_word} wifi casa → {pw}"),
    ("fr", "Mon {pw_word} postgres est {pw}, pourquoi psql refuse ?"),
    ("nl", "het nieuwe wifi-{pw_word} wordt {pw}"),
    ("ru", "{pw_word} администратора роутера теперь {pw} помогите"),
    ("zh", "新{pw_word}设置为{pw}了"),
    ("ko", "{pw_word}를 {pw}로 바꿨는데 로그인이 안 돼요"),
    # A summary's "namely" after a comma.
    ("en", "The assistant explained how to rotate the NAS admin password, namely {pw}, after Tom pasted it."),
    ("pl", "Asystent wyjaśnił, jak zmienić {pw_word} administratora NAS, a mianowicie {pw}, po wklejeniu."),
    ("fr", "le {pw_word}, à savoir {pw}, ne marche plus"),
    ("ru", "{pw_word}, а именно {pw}, не подходит"),
    ("es", "la {pw_word} del router, es decir {pw}, no funciona"),
    # A relative clause after a comma ("…, which is …"); "namely" after an "of" part.
    ("en", "The staging API key, which is {tok}, expired yesterday."),
    ("es", "Se habló de un despliegue fallido; la clave de API, que es {tok}, fue rechazada."),
    ("fr", "Le mot de passe, qui est {pw}, ne marche plus."),
    ("en", "the password for the NAS, namely {pw}, was changed"),
    ("pt", "O assistente explicou como trocar a senha do banco de dados, ou seja {pw}, depois."),
    ("es", "la contraseña del router de casa, es decir {pw}, no funciona"),
    # A relative clause that says how the value reads (Polish "brzmi"),
    # Turkish "yani" (that is) before the value.
    ("pl", "klucz API, który brzmi {tok}, przestał działać"),
    ("pl", "hasło do NAS-a, które brzmi {pw}, nie działa od wczoraj"),
    ("tr", "API anahtarı, yani {tok}, artık çalışmıyor"),
    ("tr", "modemin şifresi, yani {pw}, kabul edilmiyor"),
    ("en", "the VPN shared secret, i.e. {pw}, has to match on both ends"),
    ("en", "Summary: user gave the router password, i.e. {pw}, and asked how to change it."),
]
CLEAN[2] = [
    ("en", "The API key, which we rotate every month, was revoked yesterday."),
    ("en", "the admin password, as the policy says, must be at least 14 characters"),
    ("en", "credentials: {user} / (ask Bob for the password)"),
    ("en", "The API key (the staging one, not prod) is stored in Vault."),
    ("en", "our db password — the one Sam set last week — is in 1Password now"),
    ("en", "The token that the CI uses to push images is scoped to one repository."),
    ("en", "admin password for the NAS, just in case: check the shared vault"),
    ("en", "The API key I was given by the vendor is 40 characters long, is that the right format?"),
    ("en", "Credentials:\n  {user} / <password>\n  (same for the backup box)"),
    ("en", "the root password, as far as I remember, is the one on the sticker"),
    ("en", "The password for the shared mailbox, if it helps, was reset on Monday."),
    ("en", "**credentials:** `{user}` / `********`"),
    ("en", "login: {user}, password from the keychain - can you check why ssh refuses it?"),
    ("en", "The secret key that Django generated for us is read from the environment."),
    ("en", "so the API key that I pasted in settings.py yesterday was the wrong one and now it 403s"),
    ("fr", "Le {pw_word} admin, comme convenu, change tous les 90 jours"),
    ("fr", "La {api_word} que le support m'a envoyée est expirée"),
    ("fr", "identifiants : {user} / (demander à l'équipe infra)"),
    ("es", "La {pw_word} del admin, según la política, caduca cada 60 días"),
    ("es", "credenciales: {user} / <contraseña>"),
    ("es", "La {api_word} que me dio el proveedor es de solo lectura"),
    ("pt", "A {pw_word} do admin, segundo o TI, foi redefinida"),
    ("pt", "credenciais: {user} / ******"),
    ("de", "Das {Pw_word}, das mir der Admin geschickt hat, ist abgelaufen"),
    ("de", "Zugangsdaten: {user} / siehe KeePass"),
    ("nl", "Het admin-{pw_word}, zoals afgesproken, staat in de kluis"),
    ("pl", "{Pw_word} admina, zgodnie z polityką, zmieniamy co miesiąc"),
    ("ru", "{Pw_word} админа, по регламенту, меняется раз в квартал"),
    ("ru", "учётные данные: {user} / <пароль>"),
    ("it", "La {pw_word} dell'admin, per policy, scade ogni 90 giorni"),
    ("en", "The API key — fresh from the console — is only valid for 24 hours."),
    ("en", "the password for root on {host} (yes I know) is disabled, we use keys"),
    ("en", "The Wi-Fi password, in case you need it tonight, is on the fridge."),
    ("en", "the deploy token (the one with write access) was rotated after the incident"),
    ("de", "Das Passwort für den Router, falls du es brauchst, steht im Tresor"),
    ("en", "login: {user} / password: see the vault"),
    ("fr", "Le mot de passe que Julien a mis sur le NAS est expiré"),
    ("en", "credentials: {user} / the usual one"),
    # The same words before what the value is about, not the value.
    ("en", "password manager: 1Password, synced to the phone"),
    ("en", "Password policy: hashAlgorithm(pbkdf2-sha512) and length(14)"),
    ("es", "{pw_word} wifi casa → en la nevera"),
    ("fr", "Mon {pw_word} postgres est expiré, pourquoi ?"),
    ("nl", "{Pw_word} database: zie de kluis"),
    ("ru", "{pw_word} администратора роутера теперь другой"),
    ("ko", "{pw_word}를 잊어버렸어요"),
    ("en", "the token hash is {{sha256 of the token}}, not the token"),
    ("en", "The assistant explained how to rotate the NAS admin password, namely the one in the vault."),
    ("fr", "le {pw_word}, à savoir celui du coffre, a expiré"),
    ("ru", "{pw_word}, а именно тот, что в сейфе, устарел"),
    ("es", "la {pw_word} del router, es decir la de fábrica, no funciona"),
    ("en", "The staging API key, which is stored in Vault, expired yesterday."),
    ("es", "La clave de API, que es de solo lectura, caduca en junio."),
    ("fr", "Le mot de passe, qui est trop court, a été refusé."),
    ("en", "the password for the NAS, namely the one on the sticker, was changed"),
    ("pt", "a senha do banco de dados, ou seja a de produção, expirou"),
    ("es", "la contraseña del router de casa, es decir la de fábrica, no funciona"),
    ("pl", "klucz API, który brzmi dziwnie, przestał działać"),
    ("pl", "hasło do NAS-a, które brzmi jak imię psa, nie działa od wczoraj"),
    ("tr", "API anahtarı, yani panelde gördüğün, artık çalışmıyor"),
    ("tr", "modemin şifresi, yani etiketteki, kabul edilmiyor"),
    ("en", "the VPN shared secret, i.e. the PSK, has to match on both ends"),
    ("en", "Summary: user gave the router password, i.e. the default one, and asked how to change it."),
]

SECRET[3] = [
    (
        "en",
        "```yaml\nservices:\n  db:\n    image: postgres:16\n"
        "    environment:\n      POSTGRES_PASSWORD: {phrase_dot}\n```",
    ),
    ("en", "define('DB_PASSWORD','{phrase}');"),
    ("en", 'network={{\n    ssid="{ssid}"\n    psk="{phrase}"\n}}'),
    ("en", "wifi password: {phrase_num}"),
    ("en", "MYSQL_ROOT_PASSWORD={phrase_us}"),
    ("en", "password = {phrase_cap}"),
    ("en", "my bitwarden generated this for the db: password: {phrase}"),
    ("en", "DB_PASSWORD={phrase_num}"),
    ("en", "spring.datasource.password={phrase_dot}"),
    ("en", '"password": "{phrase4}"'),
    ("en", "Wi-Fi password is {phrase_cap}"),
    ("en", "REDIS_PASSWORD: {phrase_us}"),
    ("en", "passphrase={phrase4}"),
    ("en", "The router's default WPA key: {router_pw}"),
    ("en", "- POSTGRES_PASSWORD={phrase}"),
    ("en", "keystore password: {phrase_comma}"),
    ("en", "ENV RABBITMQ_DEFAULT_PASS={phrase_num}"),
    ("en", "wpa_passphrase={phrase4}"),
    ("en", "[client]\nuser=root\npassword={phrase_dot}"),
    ("en", "ansible_become_password: {phrase}"),
    ("fr", "{Pw_word} de la base : {phrase_num}"),
    ("es", "{Pw_word}: {phrase_cap}"),
    ("pt", "{Pw_word} do Wi-Fi: {phrase_dot}"),
    ("de", "WLAN-Passwort: {phrase}"),
    ("nl", "{Pw_word}: {phrase_num}"),
    ("pl", "{Pw_word}: {phrase_cap}"),
    ("ru", "{Pw_word}: {phrase}"),
    ("zh", "{pw_word}：{phrase_num}"),
    ("ja", "{pw_word}: {phrase_dot}"),
    ("de", "{Router_key}: {router_pw}"),
    ("en", "password is {phrase_num}"),
    ("en", "export PGPASSWORD={phrase}"),
    ("en", "KEYCLOAK_ADMIN_PASSWORD: {phrase_cap}"),
    ("en", "The Bitwarden passphrase for the backup disk is {phrase4}"),
    ("de", "Kennwort für das NAS: {phrase_num}"),
    ("en", "sudo password = {phrase_dot}"),
    ("en", '<add key="SmtpPassword" value="{phrase_us}" />'),
    # The words password managers use for a passphrase (KeePassXC, GnuPG).
    ("nl", "de wachtwoordzin is {phrase}"),
    ("nl", "Wachtwoordzin voor de sleutel: {phrase_num}"),
    ("ja", "パスフレーズは {phrase} です"),
    ("ja", "鍵のパスフレーズ：{phrase_dot}"),
]
CLEAN[3] = [
    (
        "en",
        "```yaml\nservices:\n  db:\n    image: postgres:16\n"
        "    environment:\n      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD}}\n```",
    ),
    ("en", "define('DB_PASSWORD','your-password-here');"),
    ("en", 'network={{\n    ssid="{ssid}"\n    psk="<passphrase>"\n}}'),
    ("en", "wifi password: use three random words, e.g. from the Bitwarden generator"),
    ("en", "MYSQL_ROOT_PASSWORD_FILE=/run/secrets/mysql-root"),
    ("en", "password = <generated-passphrase>"),
    ("en", "my bitwarden generated a passphrase for the db: three words joined by dashes"),
    ("en", "DB_PASSWORD=${{DB_PASSWORD:?set it in .env}}"),
    ("en", "spring.datasource.password=${{DB_PASS}}"),
    ("en", '"password": "{{{{ vault_db_password }}}}"'),
    ("en", "Wi-Fi password is printed on the router's label"),
    ("en", "REDIS_PASSWORD: changeme"),
    ("en", "passphrase=<four-words-here>"),
    ("en", "The router's default WPA key is two words and three digits, printed on the label"),
    ("en", "- POSTGRES_PASSWORD=${{PG_PASS}}"),
    ("en", "keystore password: see the release checklist"),
    ("en", "ENV RABBITMQ_DEFAULT_PASS_FILE=/run/secrets/rabbit"),
    ("en", "wpa_passphrase=YOUR_WIFI_PASSPHRASE"),
    ("en", "[client]\nuser=root\npassword=****"),
    ("en", 'ansible_become_password: "{{{{ vault_become_pass }}}}"'),
    ("fr", "{Pw_word} de la base : stocké dans le coffre"),
    ("es", "{Pw_word}: <tu-contraseña>"),
    ("pt", "{Pw_word} do Wi-Fi: veja a etiqueta do roteador"),
    ("de", "WLAN-Passwort: steht auf dem Aufkleber"),
    ("nl", "{Pw_word}: <jouw-wachtwoord>"),
    ("pl", "{Pw_word}: ********"),
    ("ru", "{Pw_word}: <ваш-пароль>"),
    ("zh", "{pw_word}：<你的密码>"),
    ("ja", "{pw_word}: ********"),
    ("de", "{Router_key}: siehe Geräteunterseite"),
    ("en", "password is reset every 90 days by the policy"),
    ("en", 'export PGPASSWORD="$(pass show db/prod)"'),
    ("en", "KEYCLOAK_ADMIN_PASSWORD: ${{KC_ADMIN_PASSWORD}}"),
    ("en", "The Bitwarden passphrase for the backup disk is in the emergency kit."),
    ("de", "Kennwort für das NAS: steht im Tresor"),
    ("en", "sudo password = read-from-vault"),
    ("en", "the password was reset; the new one follows the four-words-with-dashes format"),
    ("en", "password: spring.datasource.password in application.yml"),
    ("nl", "de wachtwoordzin is te kort volgens KeePassXC"),
    ("nl", "Wachtwoordzin voor de sleutel: zie de kluis"),
    ("ja", "パスフレーズは 金庫に保存しました です"),
    ("ja", "鍵のパスフレーズ：忘れました"),
]

SECRET[4] = [
    ("en", "password={pwamp}"),
    ("en", "DB_PASS={pwcut}"),
    ("en", "my password is {pwamp} and the login still fails"),
    ("en", "mysql --password={pwcut} -h {host}"),
    ("en", "password: {pwcut}"),
    ("en", "admin password is {pwcut}"),
    ("en", "--password {pwamp}"),
    ("en", "SMTP_PASSWORD={pwamp}"),
    ("en", "the wifi password is {pwamp}"),
    ("en", "pw={pwcut}"),
    ("en", "export DB_PASSWORD={pwamp}"),
    ("en", "root password: {pwamp}"),
    ("en", "PASSWORD={pwcut} ./deploy.sh"),
    ("en", "new password was set to {pwamp}"),
    ("en", "I set the password to {pwcut} but keepass says the entry differs"),
    ("en", "login with password={pwcut}"),
    ("en", "db.password={pwamp}"),
    ("en", "| password | {pwcut} |"),
    ("fr", "{pw_word} : {pwamp}"),
    ("fr", "le {pw_word} est {pwcut}"),
    ("es", "{pw_word}: {pwcut}"),
    ("es", "la {pw_word} es {pwamp}"),
    ("pt", "{pw_word}: {pwamp}"),
    ("de", "{Pw_word}: {pwcut}"),
    ("de", "das {Pw_word} ist {pwamp}"),
    ("nl", "{pw_word}: {pwcut}"),
    ("pl", "{pw_word}: {pwamp}"),
    ("ru", "{pw_word}: {pwcut}"),
    ("zh", "{pw_word}：{pwamp}"),
    ("ja", "{pw_word}: {pwcut}"),
    ("en", "Password: {pwamp}"),
    ("en", "redis-cli -a {pwamp} ping"),
    ("en", "set PGPASSWORD={pwcut} before running psql"),
    ("en", "the new root password: {pwamp} (don't share it)"),
    ("de", "Neues Passwort: {pwcut}"),
    ("en", "--db-password {pwcut} --db-user {user}"),
    ("es", "mi {pw_word} es {pwamp}, ¿por qué falla?"),
    # Every symbol a generator may draw, the first character included.
    ("en", "my password is {pwall} what am i doing wrong"),
    ("en", "db_password={pwall}"),
    ("en", "psql: password {pwall} fails but works in pgadmin??"),
    ("en", "api secret = {pwall}"),
    ("en", "password={pwall}&user={user} is what the form posts"),
    ("pl", "nowe {pw_word}: {pwall}"),
    ("zh", "{pw_word}是{pwall} 谢谢！"),
    ("tr", "{pw_word}: {pwall} yardım"),
    ("pt", "a {pw_word} do Wi-Fi é {pwall}"),
    ("ru", "я сменил {pw_word} на {pwall}"),
    # A generated password that starts with an opening bracket.
    ("en", "Password: {pwopen}"),
    ("en", "the new admin password is {pwopen}"),
    ("de", "Passwort: {pwopen}"),
    ("fr", "mot de passe : {pwopen}"),
    ("es", "la contraseña es {pwopen}"),
    ("sv", "lösenordet till routern är {pwopen}"),
    ("zh", "密码：{pwopen}"),
    ("ru", "пароль: {pwopen}"),
    ("nl", "wachtwoord: {pwopen}"),
    ("pl", "hasło: {pwopen}"),
]
CLEAN[4] = [
    ("en", "https://{host}/login?password=&user={user}"),
    ("en", "DB_PASS=${{DB_PASS}}&& ./run.sh"),
    ("en", "my password has & in it and the login form rejects it, why?"),
    ("en", "mysql --password= -h {host} (it prompts, that's fine)"),
    ("en", "password: must contain one of !@#$%^&* and a digit"),
    ("en", "admin password is long & random, kept in the vault"),
    ("en", "--password (reads from stdin) & --user are both required"),
    ("en", "SMTP_PASSWORD=&SMTP_USER=x is what the form posted, so the field was empty"),
    ("en", "the wifi password is on the fridge (& on the router)"),
    ("en", "pw=$(cat ~/.pw) && ./sync.sh"),
    ("en", 'export DB_PASSWORD="$(vault kv get -field=pw db)" && make'),
    ("en", "root password: disabled; use sudo & keys"),
    ("en", "PASSWORD=<yours> ./deploy.sh"),
    ("en", "new password was set & mailed to the user via the reset link"),
    ("en", "I set the password in keepass (symbols: !\"#$%&'()*+,-./:;<=>?@) but the site allows only !@#"),
    ("en", "login with password=... & user=... in the query string is a bad idea"),
    ("en", "db.password=${{DB_PASSWORD}}"),
    ("en", "| password | (see vault) |"),
    ("fr", "{pw_word} : doit contenir & ou # ou !"),
    ("fr", "le {pw_word} est dans le coffre (& pas dans le code)"),
    ("es", "{pw_word}: mínimo 12 caracteres & un símbolo"),
    ("es", "la {pw_word} es la del gestor (& no la del post-it)"),
    ("pt", "{pw_word}: <senha> & usuário: <usuario>"),
    ("de", "{Pw_word}: mindestens ein Sonderzeichen (&, %, $)"),
    ("de", "das {Pw_word} ist im Tresor & wird monatlich getauscht"),
    ("nl", "{pw_word}: (zie kluis) & gebruikersnaam: {user}"),
    ("pl", "{pw_word}: min. 12 znaków & jeden symbol"),
    ("ru", "{pw_word}: не меньше 12 символов & хотя бы одна цифра"),
    ("zh", "{pw_word}：至少12位 & 含特殊字符"),
    ("ja", "{pw_word}: 12文字以上 & 記号を含む"),
    ("en", "Password: (ask IT) & badge number"),
    ("en", 'redis-cli -a "$REDIS_PASS" ping'),
    ("en", "set PGPASSWORD=$(cat ~/.pgpw) before running psql"),
    ("en", "the new root password: see the shared vault (& rotate it monthly)"),
    ("de", "Neues Passwort: (kommt per SMS) & Benutzername: {user}"),
    ("en", "--db-password <pw> --db-user {user}"),
    ("es", "mi {pw_word} es larga & segura, ¿la cambio?"),
    # The same keys before code, placeholders and markup holding those symbols.
    ("en", "my password is {{redacted}} what am i doing wrong"),
    ("en", "db_password=os.environ['DB_PASSWORD'],"),
    ("en", "psql: password <hidden> fails but works in pgadmin??"),
    ("en", "api secret = Field(alias='API_SECRET')"),
    ("en", "password=&user={user} is what the form posts when the field is empty"),
    ("pl", "nowe {pw_word}: (w sejfie), stare: [usunięte]"),
    ("zh", "{pw_word}是<在保险箱里> 谢谢！"),
    ("tr", "{pw_word}: ${{DB_PASS}} yardım"),
    ("pt", "a {pw_word} do Wi-Fi é <senha>&lt;/senha&gt;"),
    ("ru", "я сменил {pw_word} на [скрыто]"),
    ("en", "db password: &db_pw anchor, then *db_pw in each service, does that work?"),
    ("en", "the api key pattern is AIza[0-9A-Za-z\\-_]{{35}} if you want to grep for it"),
    ("en", "auth = HTTPBasicAuth(os.environ['API_USER'], os.environ['API_TOKEN'])"),
    # A value that starts with a bracket: placeholders, templates and code keep passing.
    ("en", "password: <your password here>"),
    ("en", "password: [redacted]"),
    ("en", "root password: (see the vault)"),
    ("en", "tls.key: <base64 key>"),
    ("en", "db_password = (get_secret('db'))"),
    ("en", "api_token: [a-zA-Z0-9]{{40}}"),
    ("de", "Passwort: <Ihr Passwort>"),
    ("fr", "mot de passe : [masqué]"),
    ("es", "contraseña: (la de siempre)"),
    ("zh", "密码：<你的密码>"),
]

SECRET[5] = [
    ("en", "```python\nserver = smtplib.SMTP_SSL('smtp.gmail.com', 465)\nserver.login(user, \"{pw}\")\n```"),
    ("en", 'r = requests.get(url, auth=("admin", "{pw}"))'),
    ("en", 'client = Client("{sid}", "{hex32}")'),
    ("en", "ftp = FTP('{host}'); ftp.login('{user}', '{pw}')"),
    ("en", "conn = pymysql.connect('{host}', 'root', '{pw}', 'shop')"),
    ("en", "$pdo = new PDO($dsn, 'root', '{pw}');"),
    ("en", "$db = mysqli_connect('localhost', '{user}', '{pw}', 'wordpress');"),
    ("en", 'var cred = new NetworkCredential("{user}", "{pw}");'),
    ("en", 'auth := smtp.PlainAuth("", "me@example.org", "{pw}", "smtp.example.org")'),
    ("en", 'req.SetBasicAuth("admin", "{pw}")'),
    ("en", "ssh.connect('{host}', 22, 'root', '{pw}')"),
    ("en", "mail.login('{user}@example.org', '{pw}')"),
    ("en", 'Connection c = DriverManager.getConnection(url, "sa", "{pw}");'),
    ("en", "l.simple_bind_s('cn=admin,dc=example,dc=org', '{pw}')"),
    ("en", "HTTPBasicAuth('{user}', '{pw}')"),
    ("en", "r = redis.Redis('{host}', 6379, 0, '{pw}')"),
    ("en", 'new PasswordAuthentication("{user}", "{pw}".toCharArray())'),
    ("en", "Net::SMTP.start('smtp.example.org', 587, 'example.org', '{user}', '{pw}', :login)"),
    ("en", "twilio_client = Client('{sid}', '{hex32}')"),
    ("en", "session = boto3.Session('{user}', '{tok}')"),
    ("en", "api = Api('{hex32}', '{tok}')"),
    ("en", "import tweepy\nauth = tweepy.OAuth1UserHandler('{tok}', '{tok}')"),
    (
        "en",
        'conn = psycopg2.connect("dbname=app user={user}", password=None)\n'
        "conn2 = pg8000.connect('{user}', '{host}', None, 5432, 'app', '{pw}')",
    ),
    ("en", "const auth = Buffer.from('admin:' + '{pw}').toString('base64')"),
    ("en", "curl.setopt(pycurl.USERPWD, '{user}:{pw}')"),
    ("en", "hvac.Client(url, '{tok}')"),
    ("en", "zipfile.ZipFile('a.zip').extractall(pwd=b'{pw}')"),
    ("fr", "j'appelle `server.login(user, \"{pw}\")` et j'ai une erreur 535, pourquoi ?"),
    ("es", 'uso `auth=("admin", "{pw}")` con requests y da 401'),
    ("de", 'Mit `Client("{sid}", "{hex32}")` bekomme ich 20003'),
    ("pt", "o `ftp.login('{user}', '{pw}')` falha com 530"),
    ("ru", "`ssh.connect('{host}', 22, 'root', '{pw}')` падает по таймауту"),
    ("en", "$conn = oci_connect('scott', '{pw}', '{host}/XE');"),
    ("en", 'Auth auth = new Auth("{user}", "{pw}");'),
    ("pl", 'wywołuję `session.login("{user}", "{pw}")` i dostaję 401'),
    ("en", "r = requests.post(url, auth=HTTPDigestAuth('{user}', '{pw}'))"),
    ("en", "imap = imaplib.IMAP4_SSL('{host}')\nimap.login('{user}@example.org', '{pw}')"),
    # ldap3's tutorial (Connection(server, user, password, auto_bind=True)),
    # the MinIO Python SDK quickstart, simple_salesforce's README.
    ("en", "conn = Connection(server, 'cn=admin,dc=example,dc=org', '{pw}', auto_bind=True)\nwhy invalidCredentials?"),
    ("en", 'client = Minio("{host}:9000", "{user}", "{pw}", secure=False)'),
    ("en", "sf = Salesforce('{user}@example.org', '{pw}', '{tok}')  # works in sandbox only"),
    # PowerShell's help for ConvertTo-SecureString and Get-Credential.
    ("en", "$cred = New-Object PSCredential \"{user}\", (ConvertTo-SecureString '{pw}' -AsPlainText -Force)"),
    ("de", 'warum klappt `ConvertTo-SecureString -String "{pw}" -AsPlainText -Force` im Task nicht?'),
    # Google's app password page shows it in four groups of four letters.
    ("en", 'gmail keeps saying 535:\nserver.login("{user}@gmail.com", "{app_pw}")'),
    ("en", 'keyring.set_password("smtp", "{user}", "{pw}")'),
    ("en", 'user.setPassword("{pw}");'),
]
CLEAN[5] = [
    ("en", "```python\nserver = smtplib.SMTP_SSL('smtp.gmail.com', 465)\nserver.login(user, password)\n```"),
    ("en", 'r = requests.get(url, auth=("admin", os.environ["ADMIN_PW"]))'),
    ("en", "client = Client(account_sid, auth_token)"),
    ("en", "ftp = FTP('{host}'); ftp.login('{user}', getpass.getpass())"),
    ("en", "conn = pymysql.connect('{host}', 'root', db_password, 'shop')"),
    ("en", "$pdo = new PDO($dsn, 'root', getenv('DB_PASS'));"),
    ("en", "$db = mysqli_connect('localhost', '{user}', DB_PASSWORD, 'wordpress');"),
    ("en", 'var cred = new NetworkCredential("{user}", securePassword);'),
    ("en", 'auth := smtp.PlainAuth("", "me@example.org", os.Getenv("SMTP_PASS"), "smtp.example.org")'),
    ("en", 'req.SetBasicAuth("admin", "")'),
    ("en", "ssh.connect('{host}', 22, 'root', key_filename='~/.ssh/id_ed25519')"),
    ("en", "mail.login('{user}@example.org', app_password)"),
    ("en", 'Connection c = DriverManager.getConnection(url, "sa", System.getenv("SA_PASSWORD"));'),
    ("en", "l.simple_bind_s('cn=admin,dc=example,dc=org', bind_pw)"),
    ("en", "HTTPBasicAuth('{user}', '<password>')"),
    ("en", "r = redis.Redis('{host}', 6379, 0, settings.REDIS_PASSWORD)"),
    ("en", 'new PasswordAuthentication("{user}", password.toCharArray())'),
    ("en", "Net::SMTP.start('smtp.example.org', 587, 'example.org', '{user}', ENV['SMTP_PASS'], :login)"),
    ("en", "twilio_client = Client(os.environ['TWILIO_ACCOUNT_SID'], os.environ['TWILIO_AUTH_TOKEN'])"),
    ("en", "session = boto3.Session(profile_name='{user}')"),
    ("en", "api = Api(API_KEY, API_SECRET)"),
    ("en", "import tweepy\nauth = tweepy.OAuth1UserHandler(consumer_key, consumer_secret)"),
    ("en", "conn = pg8000.connect('{user}', '{host}', None, 5432, 'app', password)"),
    ("en", "const auth = Buffer.from('admin:' + process.env.ADMIN_PW).toString('base64')"),
    ("en", "curl.setopt(pycurl.USERPWD, f'{{user}}:{{password}}')"),
    ("en", "hvac.Client(url, token_from_file())"),
    ("en", "zipfile.ZipFile('a.zip').extractall(pwd=getpass().encode())"),
    ("fr", "j'appelle `server.login(user, password)` et j'ai une erreur 535, pourquoi ?"),
    ("es", 'uso `auth=("admin", clave)` con requests y da 401'),
    ("de", "Mit `Client(account_sid, auth_token)` bekomme ich 20003"),
    ("pt", "o `ftp.login('{user}', senha)` falha com 530"),
    ("ru", "`ssh.connect('{host}', 22, 'root', password)` падает по таймауту"),
    ("en", "$conn = oci_connect('scott', getenv('ORA_PW'), '{host}/XE');"),
    ("en", 'Auth auth = new Auth("{user}", System.getenv("PW"));'),
    ("pl", 'wywołuję `session.login("{user}", haslo)` i dostaję 401'),
    ("en", "r = requests.post(url, auth=HTTPDigestAuth('{user}', '********'))"),
    ("en", "client.connect('{host}', 8883, 60)"),
    ("en", "db = redis.Redis('{host}', 6379, 0, 'redis-password-from-vault')"),
    ("en", "conn = Connection(server, 'cn=admin,dc=example,dc=org', bind_pw, auto_bind=True)\nwhy invalidCredentials?"),
    ("en", 'client = Minio("{host}:9000", access_key, secret_key, secure=False)'),
    ("en", "sf = Salesforce(username=user, password=pw, security_token=tok)  # works in sandbox only"),
    ("en", '$cred = New-Object PSCredential "{user}", (ConvertTo-SecureString $env:SVC_PW -AsPlainText -Force)'),
    ("de", "warum klappt `ConvertTo-SecureString -String $plain -AsPlainText -Force` im Task nicht?"),
    ("en", 'gmail keeps saying 535:\nserver.login("{user}@gmail.com", app_password)'),
    ("en", 'keyring.set_password("smtp", "{user}", getpass.getpass())'),
    ("en", 'user.setPassword(request.getParameter("password"));'),
]

NETSH_DUMP = (
    'netsh wlan show profile name="{ssid}" key=clear\n...\n'
    "    {netsh_sec}           : {present}\n"
    "    {netsh_key}            : {value}\n"
)
SECRET[6] = [(lang, NETSH_DUMP.replace("{value}", "{pw}")) for lang in NETSH_KEY_CONTENT] + [
    ("en", "htpasswd -b /etc/nginx/.htpasswd {user} {pw}"),
    ("en", "htpasswd -cb .htpasswd admin {pw}"),
    ("en", "mysql -u root -p{pw} -h {host}"),
    ("en", "sshpass -p '{pw}' ssh {user}@{host}"),
    ("en", "curl -u {user}:{pw} https://{host}/api/v1/status"),
    ("en", "$ nmcli device wifi show-password\nSSID: {ssid}\nSecurity: WPA\nPassword: {pw}"),
    (
        "en",
        '$ security find-generic-password -ga "{ssid}"\n'
        'keychain: "/Library/Keychains/System.keychain"\npassword: "{pw}"',
    ),
    (
        "en",
        '$ wpa_passphrase "{ssid}" {phrase_num}\nnetwork={{\n\tssid="{ssid}"\n\t#psk="{phrase_num}"\n\tpsk={hex64}\n}}',
    ),
    ("en", "docker login -u {user} -p {pw} registry.example.org"),
    ("en", "net user {user} {pw} /add"),
    ("en", "rabbitmqctl add_user {user} {pw}"),
    ("en", "PS> cmdkey /generic:{host} /user:{user} /pass:{pw}"),
    (
        "en",
        '$ az ad sp create-for-rbac --name ci\n{{\n  "appId": "{user}",\n  "password": "{tok}",\n  "tenant": "t"\n}}',
    ),
    ("en", "mosquitto_pub -h {host} -u {user} -P {pw} -t test -m hi"),
    ("en", "smbclient //{host}/share -U {user}%{pw}"),
    ("en", 'psql "postgresql://{user}:{pw}@{host}/app"'),
    ("en", '$ docker inspect db | grep -i pass\n                "MYSQL_ROOT_PASSWORD={pw}",'),
    ("en", "htpasswd -nbB {user} {pw}"),
    ("en", "C:\\> net user administrator {pw}"),
    ("en", "rabbitmqctl change_password {user} {pw}"),
    ("en", "cmdkey /add:{host} /user:{user} /pass:{pw}"),
    ("fr", "netsh m'affiche « {netsh_key} : {pw} », c'est bien le mot de passe ?"),
    # The Windows Wi-Fi properties dialog, Security tab, typed out.
    ("en", "Security type: WPA2-Personal\nEncryption type: AES\nNetwork security key: {pw}"),
    # The text a Wi-Fi QR code holds, as a phone's camera app shows it.
    ("en", "scanned the sticker, it says WIFI:T:WPA;S:{ssid};P:{pw};;"),
    ("en", "WIFI:S:{ssid};T:WPA;P:{pw};H:false;;"),
]
# Without key=clear netsh prints no key line; people then ask where it is.
NETSH_NO_KEY = (
    'netsh wlan show profile name="{ssid}"\n...\n'
    "    {netsh_sec}           : {present}\n"
    'no "{netsh_key}" line here, do I need key=clear?'
)
# An open network: the key is absent, and so is the line that would show it.
NETSH_OPEN = (
    'netsh wlan show profile name="{ssid}" key=clear\n...\n'
    "    {netsh_sec}           : {absent}\n"
    "(open hotspot, so there is no {netsh_key})"
)
CLEAN[6] = (
    [(lang, NETSH_NO_KEY) for lang in NETSH_KEY_CONTENT]
    + [(lang, NETSH_OPEN) for lang in ("en", "de", "fr", "ja")]
    + [
        ("en", "htpasswd -B /etc/nginx/.htpasswd {user}   # prompts for the password twice"),
        ("en", "htpasswd -D .htpasswd admin"),
        ("en", "mysql -u root -p -h {host}   (it asks for the password)"),
        ("en", "sshpass -f ~/.ssh/pw_file ssh {user}@{host}"),
        ("en", "curl -u {user} https://{host}/api/v1/status  # curl prompts"),
        ("en", "$ nmcli device wifi show-password\nSSID: {ssid}\nSecurity: --\nPassword: (none)"),
        (
            "en",
            '$ security find-generic-password -ga "{ssid}"\n'
            "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.",
        ),
        ("en", '$ wpa_passphrase "{ssid}"\n# reading passphrase from stdin\nPassphrase must be 8..63 characters'),
        ("en", "docker login -u {user} --password-stdin registry.example.org < ~/.docker-token"),
        ("en", "net user {user} * /add   (the star makes it prompt)"),
        ("en", "rabbitmqctl change_password {user}   # prompts for the new one"),
        ("en", "PS> cmdkey /list\nTarget: {host}\nType: Generic\nUser: {user}"),
        (
            "en",
            "$ az ad sp create-for-rbac --name ci\n"
            '{{\n  "appId": "{user}",\n  "password": "<redacted>",\n  "tenant": "t"\n}}',
        ),
        ("en", 'mosquitto_pub -h {host} -u {user} -P "$MQTT_PASS" -t test -m hi'),
        ("en", "smbclient //{host}/share -U {user}   # asks for the password"),
        ("en", 'psql "postgresql://{user}@{host}/app"   # password from ~/.pgpass'),
        ("en", '$ docker inspect db | grep -i pass\n                "MYSQL_ROOT_PASSWORD_FILE=/run/secrets/db_root",'),
        ("en", "htpasswd -nB {user}   # prints the line, asks for the password"),
        ("en", "C:\\> net user administrator /active:yes"),
        ("en", "rabbitmqctl list_users"),
        ("en", "cmdkey /add:{host} /user:{user} /pass   (prompts for it)"),
        ("fr", "netsh n'affiche pas « {netsh_key} » sans key=clear"),
        ("en", 'wpa_passphrase "{ssid}" < passphrase.txt > wpa.conf'),
        ("en", "Security type: WPA2-Personal\nEncryption type: AES\nNetwork security key: hidden until I tick the box"),
        ("en", "the QR format is WIFI:T:WPA;S:<ssid>;P:<password>;; per the ZXing wiki"),
        ("en", "WIFI:S:{ssid};T:nopass;P:;;"),
    ]
)

# Jenkins credentials.xml element names (credentials and plain-credentials plugins).
USERNAME_PASSWORD = "com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl"
STRING_CREDENTIALS = "org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl"
SECRET[7] = [
    ("en", "API_KEY={hex32}"),
    ("en", "MAILGUN_KEY={hex32}"),
    ("en", "export SECRET_KEY={hex32}"),
    ("en", "api key: {HEX32}"),
    ("en", 'client_secret = "{hex32}"'),
    ("en", "APP_SECRET={hex40}"),
    ("en", '"apiKey": "{hex32}"'),
    ("en", "LICENSE_KEY={hex40}"),
    ("en", "my api key is {hex32}"),
    ("en", "access_key: {hex32}"),
    ("fr", "ma {api_word} : {hex32}"),
    ("de", "Der {api_word} lautet {hex32}"),
    ("es", "{api_word}: {hex32}"),
    ("en", 'token: "{longtok}"'),
    ("en", 'SESSION_TOKEN="{longtok}"'),
    ("en", '"access_token": "{longtok}"'),
    ("en", "Authorization token = '{longtok}'"),
    ("en", "auth_token: '{longtok}'"),
    ("en", "here is my token {longtok}"),
    ("en", 'const TOKEN = "{longtok}";'),
    ("en", "refresh_token={longtok}"),
    ("en", "<secret>{jenkins}</secret>"),
    (
        "en",
        "```xml\n<"
        + USERNAME_PASSWORD
        + ">\n  <id>deploy</id>\n  <username>{user}</username>\n  <password>{jenkins}</password>\n</"
        + USERNAME_PASSWORD
        + ">\n```",
    ),
    (
        "en",
        "<" + STRING_CREDENTIALS + ">\n  <id>slack</id>\n  <secret>{jenkins}</secret>\n</" + STRING_CREDENTIALS + ">",
    ),
    ("en", "found this in credentials.xml: <secret>{jenkins}</secret> can it be decrypted?"),
    ("en", "<privateKeyPassphrase>{jenkins}</privateKeyPassphrase>"),
    ("en", "<apiToken>{jenkins}</apiToken>"),
    ("en", "<passphrase>{jenkins}</passphrase>"),
    ("en", "secretBytes: <secretBytes>{jenkins}</secretBytes>"),
    ("en", "<password>{jenkins}</password>"),
    ("en", "DATADOG_API_KEY={hex32}"),
    ("en", "SENDGRID_SECRET={hex40}"),
    ("en", "ALGOLIA_ADMIN_KEY={hex32}"),
    ("en", "id_token: '{longtok}'"),
    ("it", "la chiave API è {hex32}"),
    ("en", "<hudson.util.Secret>{jenkins}</hudson.util.Secret>"),
    ("en", "MANDRILL_KEY: {HEX32}"),
    # Configuration pasted from a cluster, a database console, Terraform
    # and a Cisco switch (the IOS configuration guides' forms).
    ("en", 'env:\n  - name: SMTP_PASS  # prod\n    value: "{pw}"\n  - name: SMTP_HOST\n    value: {host}'),
    ("en", "kind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\nstringData:\n  password: {pw}"),
    ("en", "mysql> SET PASSWORD FOR 'root'@'localhost' = '{pw}';  -- temp"),
    ("en", 'variable "admin_password" {{\n  type    = string\n  default = "{pw}"\n}}'),
    ("en", "enable password {router_pw}"),
    ("en", "username {user} privilege 15 password 0 {tok}"),
    ("en", "snmp-server community {tok} RW"),
]
CLEAN[7] = [
    ("en", "MD5 checksum={hex32}"),
    ("en", 'ETag: "{hex32}"'),
    ("en", "commit {hex40}"),
    ("en", "sha256sum: {hex64}  app.tar.gz"),
    ("en", 'cache_key = "build-{num}"'),
    ("en", "APP_SECRET=${{APP_SECRET}}"),
    ("en", '"apiKey": "<your-api-key>"'),
    ("en", "LICENSE_KEY=YOUR_LICENSE_KEY"),
    ("en", "my api key is 32 hex digits long, is that normal?"),
    ("en", "access_key: (from the IAM console)"),
    ("fr", "ma {api_word} : dans le gestionnaire de secrets"),
    ("de", "Der {api_word} lautet wie im Tresor hinterlegt"),
    ("es", "{api_word}: <tu-clave>"),
    ("en", 'token: "<paste the JWT here, it is about 400 characters>"'),
    ("en", 'SESSION_TOKEN="${{SESSION_TOKEN}}"'),
    ("en", '"access_token": "REDACTED"'),
    ("en", "the access token is longer than 256 characters, so the column must be TEXT"),
    ("en", "auth_token: '{{{{ secrets.AUTH_TOKEN }}}}'"),
    ("en", "here is my token: [removed]"),
    ("en", "const TOKEN = process.env.TOKEN;"),
    ("en", "refresh_token=<refresh-token>"),
    ("en", "<secret>${{SLACK_TOKEN}}</secret>"),
    (
        "en",
        "```xml\n<"
        + USERNAME_PASSWORD
        + ">\n  <id>deploy</id>\n  <username>{user}</username>\n  <password></password>\n</"
        + USERNAME_PASSWORD
        + ">\n```",
    ),
    (
        "en",
        "<"
        + STRING_CREDENTIALS
        + ">\n  <id>slack</id>\n  <description>Slack bot token</description>\n</"
        + STRING_CREDENTIALS
        + ">",
    ),
    ("en", "Jenkins stores <secret> values encrypted with the master key; the XML shows {{AQAAAB...}}"),
    ("en", "<privateKeyPassphrase/>"),
    ("en", "<apiToken>****</apiToken>"),
    ("en", "<passphrase></passphrase>"),
    ("en", "secretBytes are base64 of the encrypted file; see hudson.util.Secret"),
    ("en", "<password>${{DEPLOY_PASSWORD}}</password>"),
    ("en", "Docker image digest sha256:{hex64}"),
    ("en", "git tag v2.{num} {hex40}"),
    ("en", "ALGOLIA_SEARCH_KEY is public, so it may ship in the bundle"),
    ("en", "id_token: '<the JWT from the login response, about 900 characters>'"),
    ("it", "la chiave API è nel gestore dei segreti"),
    ("en", "<hudson.util.Secret>${{JENKINS_SECRET}}</hudson.util.Secret>"),
    ("en", "PUBLIC_KEY={hex64}"),
    ("en", "CACHE_KEY={hex32}"),
    ("en", "- name: SMTP_PASS  # from the vault\n  valueFrom:\n    secretKeyRef:\n      name: smtp"),
    ("en", "kind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\nstringData:\n  password: ${{DB_PASSWORD}}"),
    ("en", "mysql> SET PASSWORD FOR 'root'@'localhost' = @new_pw;  -- from the script"),
    ("en", 'variable "admin_password" {{\n  type      = string\n  sensitive = true\n}}'),
    ("en", "enable password is the old one, should I switch to enable secret 9?"),
    ("en", "username {user} privilege 15 secret 9 is what the guide says, right?"),
    ("en", "snmp-server community public RO"),
]

SECRET[8] = [
    ("en", "GitHub tokens match `ghp_[A-Za-z0-9]{{36}}`; mine is {gh}"),
    ("en", "regex for our keys: ^sk_live_[0-9a-zA-Z]{{24}}$ and here is a live one: {stripe}"),
    ("en", "pattern: /xox[baprs]-[0-9a-zA-Z-]+/ matched {slack} in the log"),
    ("en", "AKIA[0-9A-Z]{{16}} matched this line: aws_access_key_id = {akia}"),
    ("en", "the validator uses [A-Za-z0-9_-]{{32,}} and the api_key={tok} passes it"),
    ("en", "我用正则 ghp_[A-Za-z0-9]{{36}} 匹配到了 {gh}"),
    ("ja", "正規表現 ^sk_live_[0-9a-zA-Z]{{24}}$ で検出されたのは {stripe} です"),
    ("zh", "环境变量API_KEY设置为{tok}"),
    ("zh", "把DATABASE_PASSWORD改成{pw}之后还是连不上"),
    ("zh", "在.env里写了SECRET_KEY={tok}"),
    ("zh", "我的GITHUB_TOKEN是{gh}"),
    ("zh", "OPENAI_API_KEY：{tok}"),
    ("zh", "环境变量DB_PASSWORD的值是{pw}"),
    ("ja", "環境変数API_KEYに{tok}を設定しました"),
    ("ja", "DB_PASSWORDは{pw}です"),
    ("ja", ".envにSECRET_KEY={tok}と書きました"),
    ("ja", "GITHUB_TOKENに{gh}を入れたのに403になります"),
    ("ja", "環境変数POSTGRES_PASSWORDの値：{pw}"),
    ("ko", "환경 변수 API_KEY에 {tok}를 넣었습니다"),
    ("zh", "STRIPE_SECRET_KEY等于{stripe}"),
    ("ja", "SLACK_BOT_TOKENは{slack}です"),
    ("zh", "AWS_SECRET_ACCESS_KEY是{tok}"),
    ("en", "`^[0-9a-f]{{32}}$` is what the docs say; the key they gave us: API_KEY={hex32}"),
    ("en", "does (?i)password\\s*[:=]\\s*\\S+ catch this? password: {pw}"),
    ("zh", "正则 [A-Za-z0-9]{{40}} 可以匹配 SECRET={tok}"),
    ("ja", "REDIS_PASSWORDを{pw}に変えました"),
    ("zh", "用户名{user}，密码是{pw}，环境变量是MYSQL_PWD"),
    ("ja", "SMTP_PASSWORDには{pw}を使っています"),
    ("zh", "TOKEN={tok}写在了CI的环境变量里"),
    ("ja", "APIキーはAPI_KEY={tok}です"),
    ("en", "regex `[0-9a-zA-Z]{{32}}` and the secret: client_secret={tok}"),
    ("zh", "我的密码是{pw}，对应环境变量ADMIN_PASSWORD"),
    ("ja", "OPENAI_API_KEYが{tok}になっているか確認して"),
    ("zh", "CLIENT_SECRET等于{tok}，但是还是401"),
    ("ko", "DB_PASSWORD는 {pw}입니다"),
    ("en", "the scanner pattern is `sk-[A-Za-z0-9]{{48}}` and my key is OPENAI_API_KEY={tok}"),
    ("ja", "トークンはGITLAB_TOKENの値：{tok}です"),
    ("en", 'EMAIL_HOST_PASSWORD = "{app_pw}"  # the gmail app password'),
    ("ja", 'GmailのアプリパスワードをSMTP_PASSWORD="{app_pw}"に入れました'),
]
CLEAN[8] = [
    ("en", "GitHub tokens match `ghp_[A-Za-z0-9]{{36}}`; ours are fine-grained now"),
    ("en", "regex for our keys: ^sk_live_[0-9a-zA-Z]{{24}}$ — is that still the length?"),
    ("en", "pattern: /xox[baprs]-[0-9a-zA-Z-]+/ for Slack tokens in the scanner config"),
    ("en", "AKIA[0-9A-Z]{{16}} is the access key id shape gitleaks uses"),
    ("en", "the validator uses [A-Za-z0-9_-]{{32,}} for the api_key field"),
    ("en", "我用正则 ghp_[A-Za-z0-9]{{36}} 来匹配 GitHub 令牌"),
    ("ja", "正規表現 ^sk_live_[0-9a-zA-Z]{{24}}$ で Stripe のキーを検出します"),
    ("zh", "环境变量API_KEY需要在部署前设置"),
    ("zh", "把DATABASE_PASSWORD放到密钥管理服务里"),
    ("zh", "在.env里加上SECRET_KEY这一行，值从Vault读取"),
    ("zh", "我的GITHUB_TOKEN过期了，需要重新生成"),
    ("zh", "OPENAI_API_KEY没有设置，所以报错"),
    ("zh", "环境变量DB_PASSWORD的值从Kubernetes Secret读取"),
    ("ja", "環境変数API_KEYを設定してから起動してください"),
    ("ja", "DB_PASSWORDは必須です"),
    ("ja", ".envにSECRET_KEYを追加しました"),
    ("ja", "GITHUB_TOKENの権限が足りないので403になります"),
    ("ja", "環境変数POSTGRES_PASSWORDが未設定です"),
    ("ko", "환경 변수 API_KEY를 설정해야 합니다"),
    ("zh", "STRIPE_SECRET_KEY只在服务器端使用"),
    ("ja", "SLACK_BOT_TOKENはSecrets Managerに保存します"),
    ("zh", "AWS_SECRET_ACCESS_KEY不要提交到仓库"),
    ("en", "`^[0-9a-f]{{32}}$` is what the docs say an API_KEY looks like"),
    ("en", "does (?i)password\\s*[:=]\\s*\\S+ catch too much? it flags password: <redacted>"),
    ("zh", "正则 [A-Za-z0-9]{{40}} 用来检查SECRET的格式"),
    ("ja", "REDIS_PASSWORDを変更したら再起動が必要です"),
    ("zh", "用户名{user}，密码从环境变量MYSQL_PWD读取"),
    ("ja", "SMTP_PASSWORDにはアプリパスワードを使ってください"),
    ("zh", "TOKEN写在了CI的环境变量里，不在代码中"),
    ("ja", "APIキーはAPI_KEYという名前で渡します"),
    ("en", "regex `[0-9a-zA-Z]{{32}}` for the client_secret format check"),
    ("zh", "我的密码已经重置了，对应环境变量ADMIN_PASSWORD"),
    ("en", 'token: "xox[baprs]-([0-9a-zA-Z]{{10,48}})"'),
    ("en", '"api_key": {{"type": "string", "pattern": "^[A-Za-z0-9]{{32}}$"}}'),
    ("en", 'password_pattern: "(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{{12,}}"'),
    ("en", "secret: '[0-9a-f]{{40}}'  # what a deploy key id looks like"),
    ("en", 'GITHUB_TOKEN_RE = "gh[pousr]_[A-Za-z0-9]{{36,251}}"'),
    ("zh", "环境变量SECRET_KEY=在.env中配置"),
    ("zh", "密码=环境变量MYSQL_PWD"),
    ("ja", "PASSWORD=の行を.envに追加します"),
    ("ja", "API_KEY=の後に値を書かないでください"),
    ("ja", "TOKEN=はCIの設定画面で登録します"),
    ("zh", "把TOKEN=写到.env.example里，值留空"),
    ("zh", "DB_PASSWORD=后面的值请从Vault获取"),
    ("ja", "OPENAI_API_KEYが未設定になっているか確認して"),
    ("zh", "CLIENT_SECRET等于空字符串的时候会报401"),
    ("ko", "DB_PASSWORD는 필수 항목입니다"),
    ("en", 'secret_regex: "[A-Fa-f0-9]{{64}}"'),
    ("ja", "トークンはGITLAB_TOKENの値を使います"),
    ("en", "api_key_pattern = '^[a-z0-9]{{32}}$'"),
    ("en", 'EMAIL_HOST_PASSWORD = os.environ["GMAIL_APP_PASSWORD"]  # 16 letters in four groups'),
    ("ja", "SMTP_PASSWORDにはGmailのアプリパスワード（16文字、スペースなし）を入れます"),
    # A password policy written as a regular expression (a class escape, a
    # lookahead, any character counted), and where a password is kept.
    ("en", "our signup form checks password: ^(?=.*[A-Z])(?=.*\\d)[\\w@#%]{{10,}}$ is that too strict?"),
    ("de", "Regel fürs Passwort: ^(?=.*\\d).{{14,}}$ laut IT"),
    ("en", "const PASSWORD_PATTERN = /^[\\w!?#]{{16,128}}$/; // from the security review"),
    ("es", "la contraseña debe cumplir (?=.*[!@#]).{{12,}} según la política"),
    ("ja", "管理者パスワードは1Passwordに入れてあります"),
    ("zh", "路由器密码是Bitwarden里那条，别问我"),
    ("en", "the staging db password is in 1Password, vault Ops"),
    ("fr", "le mot de passe du NAS est dans KeePassXC"),
]

# Vendor prefixes, split so that no scanner reads one in this file.
PREFIXED = {
    "gh": lambda rng: "gh" + "p_" + mixed(ALNUM, 36, rng),
    "stripe": lambda rng: "sk" + "_live_" + mixed(ALNUM, 24, rng),
    "slack": lambda rng: (
        "xo" + "xb-" + rand(DIGITS, 12, rng) + "-" + rand(DIGITS, 12, rng) + "-" + mixed(ALNUM, 24, rng)
    ),
    "akia": lambda rng: "AK" + "IA" + mixed(UPPER + "234567", 16, rng),
}
VALUES.update(PREFIXED)
SECRET_SLOTS = SECRET_SLOTS | frozenset(PREFIXED)
# Google's app password, as its page shows it: four groups of four letters.
VALUES["app_pw"] = lambda rng: " ".join(rand(LOWER, 4, rng) for _ in range(4))
SECRET_SLOTS = SECRET_SLOTS | {"app_pw"}
# A generator's password that starts with an opening bracket (KeePass draws
# the first character from every class it is given).
VALUES["pwopen"] = lambda rng: rng.choice("([{<") + all_symbols_password(rng)
SECRET_SLOTS = SECRET_SLOTS | {"pwopen"}


@dataclass(frozen=True)
class Case:
    id: str
    cls: int
    lang: str
    template: str
    text: str
    expected: str


def fill(template: str, lang: str, rng: random.Random) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        key = name[0].lower() + name[1:]
        if key in LOCALIZED:
            word = rng.choice(LOCALIZED[key][lang])
            return word[0].upper() + word[1:] if name[0].isupper() else word
        if name == "present":
            return NETSH_PRESENT[lang]
        if name == "absent":
            return NETSH_ABSENT[lang]
        return VALUES[name](rng)

    text = SLOT.sub(one, template)
    return text.replace("{{", "{").replace("}}", "}")


def template_id(cls: int, side: str, index: int) -> str:
    return f"c{cls}-{side}{index:02d}"


def templates() -> list[tuple[str, int, str, str, str]]:
    """Every template: (template id, class, language, text, expected)."""
    rows = []
    for cls in CLASSES:
        for side, expected, table in (("s", REFUSE, SECRET), ("n", PASS, CLEAN)):
            for index, (lang, text) in enumerate(table[cls]):
                rows.append((template_id(cls, side, index), cls, lang, text, expected))
    return rows


def cases(seed: int = 39) -> list[Case]:
    """The corpus for one seed: each template REPEATS times, filled anew.
    Each filling draws from a generator of its own (seed, template id,
    repetition), so that a template added at the end of a class changes no
    other case's values."""
    counters: dict[tuple[int, str, str], int] = {}
    out = []
    for repeat in range(REPEATS):
        for tid, cls, lang, text, expected in templates():
            counter = (cls, lang, expected)
            counters[counter] = counters.get(counter, 0) + 1
            number = f"{counters[counter]:03d}" if expected == REFUSE else f"n{counters[counter]:03d}"
            rng = random.Random(f"{seed}:{tid}:{repeat}")
            out.append(Case(f"c{cls}-{lang}-{number}", cls, lang, tid, fill(text, lang, rng), expected))
    return out


def secret_slots(template: str) -> set[str]:
    return {name for name in SLOT.findall(template) if name in SECRET_SLOTS}


LANGUAGES = sorted({lang for table in (SECRET, CLEAN) for rows in table.values() for lang, _ in rows})
assert set(LANGUAGES) <= set(NETSH_KEY_CONTENT), LANGUAGES
