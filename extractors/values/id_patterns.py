"""The identifier pattern registry: shipped patterns as data, validators, user patterns.

Each :class:`IdPattern` is a name, a compiled ``regex`` pattern, a score and a subtype,
plus optional checks: ``context`` (a regex that must match in the few words before the
match, same sentence), ``needs`` (a regex that must match somewhere in the turn),
``veto`` (a regex that must not match just before), ``validator`` (a predicate on the
matched value: a checksum, a range) and ``group`` (the named group that is the span,
when the pattern also matches its context).
``family`` selects the extractor's handler; ``generic`` is the data-only path that user
patterns take too. Every pattern is linear-time: bounded quantifiers, no nesting of
unbounded ones, and every match runs under a timeout.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from extractors.text import guard
from extractors.text.gates import ALWAYS, DIGIT, Gate, gate, words_of
from extractors.text.guard import Guarded, rx

Validator = Callable[[str], bool]
Normalizer = Callable[[str], str]


@dataclass(frozen=True)
class IdPattern:
    """One named, scored identifier pattern with its optional checks."""

    name: str
    pattern: Guarded
    score: float
    family: str = "generic"
    subtype: str = "reference"
    context: Guarded | None = None
    needs: Guarded | None = None
    veto: Guarded | None = None
    validator: Validator | None = None
    group: str | None = None
    normalize: Normalizer | None = None
    user: bool = False
    #: What a turn must hold for the pattern to match at all (:mod:`extractors.text.gates`).
    gate: Gate = ALWAYS


def compile_pattern(body: str) -> Guarded:
    """Compile a shipped pattern body: verbose, version 0, linear (``tests/test_guard.py``)."""
    return rx(body, regex.VERBOSE | regex.V0, linear=True)


def context_words(words: Sequence[str]) -> Guarded:
    """Return a regex that finds any of ``words`` (escaped, case-insensitive) in a window."""
    alternatives = "|".join(regex.escape(w.strip()).replace(r"\ ", r"\s+")
                            for w in sorted(words, key=len, reverse=True) if w.strip())
    return rx(rf"(?i)(?<!\w)(?:{alternatives})(?!\w)")


# --- validators ---------------------------------------------------------------------------

_IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20,
    "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18,
    "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30,
    "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24,
    "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28,
    "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24,
    "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}


def compact(value: str) -> str:
    """Return ``value`` upper-cased without spaces and dashes."""
    return guard.sub(r"[\s-]", "", value).upper()


def valid_iban(value: str) -> bool:
    """Return True if ``value`` is an IBAN of its country's length with a valid mod-97."""
    iban = compact(value)
    if len(iban) < 15 or _IBAN_LENGTHS.get(iban[:2]) not in (None, len(iban)):
        return False
    if not guard.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    digits = "".join(str(int(ch, 36)) for ch in iban[4:] + iban[:4])
    return int(digits) % 97 == 1


def valid_luhn(value: str) -> bool:
    """Return True if the digits of ``value`` pass the Luhn checksum (cards, IMEIs)."""
    digits = [int(ch) for ch in value if ch.isdigit()]
    if len(digits) < 2:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return total % 10 == 0


def valid_container(value: str) -> bool:
    """Return True if ``value`` is an ISO 6346 freight container number with a valid
    check digit ("CSQU 305438-3")."""
    code = guard.sub(r"[\s-]", "", value)
    if not guard.fullmatch(r"[A-Z]{3}[UJZ]\d{7}", code):
        return False
    values, n = {}, 10
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        n += n % 11 == 0  # the values skip multiples of 11
        values[letter] = n
        n += 1
    total = sum((values[ch] if ch.isalpha() else int(ch)) << i for i, ch in enumerate(code[:10]))
    return total % 11 % 10 == int(code[10])


def valid_ipv4(value: str) -> bool:
    """Return True if ``value`` is a dotted quad with octets <= 255 (no leading zeros)."""
    parts = value.split(".")
    return len(parts) == 4 and all(
        p.isdigit() and int(p) <= 255 and (p == "0" or not p.startswith("0")) for p in parts)


def valid_ipv6(value: str) -> bool:
    """Return True if ``value`` parses as an IPv6 address with at least two groups."""
    if value.count(":") < 2 or not any(ch not in ":" for ch in value):
        return False
    try:
        ipaddress.IPv6Address(value)
    except ValueError:
        return False
    return True


def normal_ipv6(value: str) -> str:
    """Return the compressed lower-case form of an IPv6 address."""
    return ipaddress.IPv6Address(value).compressed


#: Validators a pattern file may name (``validator = "iban"``).
VALIDATORS: dict[str, Validator] = {
    "iban": valid_iban, "luhn": valid_luhn, "ipv4": valid_ipv4, "ipv6": valid_ipv6,
    "container": valid_container,
}

# --- shipped data -------------------------------------------------------------------------

#: Two-letter airline designators common enough to mark "BA287" as a flight on its own.
#: US state and other frequent two-letter codes ("CA", "NH", "AS") are left out on purpose.
AIRLINES: frozenset[str] = frozenset(
    "AA AC AF AI AM AY AZ BA B6 CX DL EI EK EY FR IB JL KE KL LH LX NZ OS QF QR SK SQ TK "
    "TP U2 UA VS W6 WN".split())

#: Program names that make "run X ..." a command even without flags.
TOOLS: frozenset[str] = frozenset(
    "pytest python python3 pip pip3 uv poetry npm npx yarn pnpm node deno bun git make cmake "
    "cargo rustc go docker docker-compose kubectl helm terraform ansible ruff mypy black flake8 "
    "tox nox bash sh zsh ls cd cat grep rg find curl wget psql mysql sqlite3 redis-cli alembic "
    "django-admin manage.py rails rake bundle gem mvn gradle dotnet java javac gcc clang "
    "ssh scp rsync tar chmod chown systemctl journalctl brew apt apt-get dnf yum pre-commit "
    "jest vitest mocha eslint prettier tsc webpack vite sed awk jq aws gcloud az".split())

_FILE_EXT = (
    r"py|pyi|ipynb|js|mjs|ts|tsx|jsx|json|jsonl|md|rst|txt|yaml|yml|toml|cfg|ini|conf|sql|"
    r"sh|bash|rs|go|java|kt|c|h|cc|cpp|hpp|cs|rb|php|html|css|scss|xml|csv|tsv|lock|env|"
    r"log|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|zip|tar|gz|tgz|whl|db|sqlite|parquet"
)


def _spelled(alternatives: str) -> frozenset[str]:
    """Every word an alternation of words with at most one optional letter each matches
    ("docx?" gives "doc" and "docx")."""
    out = set()
    for alt in alternatives.split("|"):
        if "?" in alt:
            i = alt.index("?")
            out |= {alt[:i - 1] + alt[i + 1:], alt[:i] + alt[i + 1:]}
        else:
            out.add(alt)
    return frozenset(out)


_TLD = (
    r"com|net|org|io|dev|app|ai|co|edu|gov|info|biz|cloud|tech|me|us|uk|de|fr|eu|ie|ca|au|"
    r"jp|nl|ch|es|it|se|no|in|internal|local|lan|corp|example|test|localhost"
)

def _looks_like_version(value: str) -> bool:
    """Return True unless a dotted number reads as a thousands grouping or a date."""
    parts = value.lstrip("vV").split("-")[0].split("+")[0].split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        return False
    if len(parts) > 2 and all(len(p) == 3 for p in parts[1:]):
        return False  # 1.240.000: a European thousands grouping
    if len(parts) == 3 and len(parts[2]) in (2, 4):
        day, month, year = (int(p) for p in parts)
        if 1 <= day <= 31 and 1 <= month <= 12 and (len(parts[2]) == 2
                                                   or 1900 <= int(parts[2]) <= 2100):
            return False  # 12.03.2026: a date
    return True


def _mixed_code(value: str) -> bool:
    """Return True if ``value`` has a letter and a digit and four or more of them."""
    chars = [ch for ch in value if ch.isalnum()]
    return len(chars) >= 4 and any(c.isalpha() for c in chars) and any(
        c.isdigit() for c in chars)


#: Two-letter carrier codes (airlines above) plus rail products ("EC 317", "ICE 1234").
RAIL_PRODUCTS: frozenset[str] = frozenset("EC IC ICE IR IRE RE RB RJ RJX TGV EN NJ ES".split())
#: HTTP status codes common enough to name an outage ("returns 502").
HTTP_STATUSES: frozenset[str] = frozenset(
    "200 201 202 204 301 302 303 304 307 308 400 401 403 404 405 406 408 409 410 411 412 413 "
    "415 418 422 425 429 500 501 502 503 504 505 507 508 520 521 522 523 524".split())
_TRAVEL_TURN = rx(
    r"(?i)\b(?:flights?|flying|fly|flew|airlines?|airport|boarding|board|gate|layover|"
    r"connections?|connecting|depart(?:s|ed|ing|ure)?|arriv(?:e|es|ed|ing|al)|lands?|landing|"
    r"leaves|leaving|rebook(?:ed|ing)?|trains?|rail|railway|platform|terminal|fares?|seats?|"
    r"miss(?:ed)?|carriage|coach|eurocity|intercity|itinerary|e-?ticket)\b")
#: The words of _TRAVEL_TURN, as gate tokens (the turn-wide ``needs`` is necessary).
_TRAVEL_WORDS = frozenset("""
flight flights flying fly flew airline airlines airport boarding board gate layover connection
connections connecting depart departs departed departing departure arrive arrives arrived
arriving arrival land lands landing leaves leaving rebook rebooked rebooking train trains rail
railway platform terminal fare fares seat seats miss missed carriage coach eurocity intercity
itinerary eticket ticket
""".split())
#: Turn words of version control and schema migrations (for short SHAs and branches).
_GIT_TURN = (r"(?i)(?<![A-Za-z])(?:git|commits?|committed|revisions?|alembic|migrations?|sha|"
             r"rebased?|merged?|merging|push(?:ed)?|pull|PR|pull\ request|branch(?:es)?|heads?|"
             r"cherry-pick(?:ed)?|repo(?:sitory)?|upstream|origin|CI)(?![A-Za-z])")
#: Turn words of code, configuration and deployment (for SCREAMING_SNAKE names).
_WORK_TURN = (r"(?i)\b(?:tickets?|issues?|jira|bugs?|branch(?:es)?|commits?|PRs?|pull\ requests?|"
              r"merge|fix(?:es|ed)?|deploy\w*|tests?|repo|sprint|stor(?:y|ies)|epics?|backlog|"
              r"migrations?|releases?|hotfix|regression)\b")
_CODE_TURN = rx(
    r"(?i)(?:(?<!\w)\.env\b|\b(?:env(?:ironment)?|variables?|secrets?|config(?:uration)?|"
    r"export|CI|pipeline|deploy(?:ed|ment)?|yaml|docker|container|repo(?:sitory)?|build|job|"
    r"commit|push(?:ed)?|settings?|code|script)\b)")
_HTTP_TURN = rx(
    r"(?i)\b(?:https?|api|endpoint|url|server|gateway|nginx|proxy|load\ balancer|request|"
    r"response|health|staging|prod|service|site|page)\b|https?://")
_IT_TURN = rx(
    r"(?i)\b(?:host|server|service|deploy(?:ed)?|crash(?:ed)?|ssh|container|pod|node|cluster|"
    r"gateway|api|staging|prod(?:uction)?|logs?|vm|instance|machine|restart(?:ed)?)\b")
_DB_CONTEXT = (r"(?i)\b(?:sql|database|db|query|queries|schema|migrations?|columns?|rows?|"
               r"postgres(?:ql)?|mysql|sqlite|select|insert|index|join|foreign\ key|"
               r"primary\ key|orm|dbt|relation|alembic|indexes)\b")
#: Words of the "flight" pattern's context: a necessary condition, so also its gate.
_FLIGHT_WORDS = ("flight flights flying fly airline boarding depart departs departing gate "
                 "layover connecting")
#: The first word of each context of the "context_number" pattern.
_CONTEXT_NUMBER_WORDS = (
    "order booking reservation confirmation invoice ticket case account tracking claim hold "
    "policy membership member customer transaction issue pr pull reference ref receipt "
    "shipment parcel return rma job request incident loan contract subscription application "
    "voucher quote id student patient employee staff meter serial passport badge container")
#: ... and each glued to the number word the pattern allows after it ("ordernumber").
_CONTEXT_NUMBER_TOKENS = frozenset(
    word + glued for word in _CONTEXT_NUMBER_WORDS.split()
    for glued in ("", "number", "no", "num", "id", "code"))
#: Dotfiles and dot-directories named on their own (".env", ".github").
_DOTFILES = ("env|gitignore|gitattributes|gitlab-ci|github|dockerignore|editorconfig|npmrc|"
             "nvmrc|yarnrc|bashrc|zshrc|profile|bash_profile|pre-commit-config|python-version|"
             "tool-versions|flake8|pylintrc|coveragerc|htaccess|terraform|vscode|prettierrc|"
             "eslintrc|babelrc|pypirc|netrc|ssh|aws|kube|venv")
#: The words of _GIT_TURN and _HTTP_TURN, as gate tokens (a turn-wide ``needs`` is a
#: necessary condition, so it can gate).
_GIT_WORDS = ("git commit commits committed revision revisions alembic migration migrations "
              "sha rebase rebased merge merged merging push pushed pull pr branch branches "
              "head heads cherry repo repository upstream origin ci")
_HTTP_WORDS = ("http https api endpoint url server gateway nginx proxy load request response "
               "health staging prod service site page")
_c = compile_pattern

PATTERNS: tuple[IdPattern, ...] = (
    IdPattern("email", _c(
        r"(?<![\w.+%-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}"
        r"\.[A-Za-z]{2,24}(?![\w-])"), 0.95, "email", "email",
        gate=gate("@")),
    IdPattern("url", _c(
        r"(?<![\w@/.])(?:(?i:https?|ftp)://|www\.)[^\s<>\"'`{}|\\^]{2,2000}"), 0.95, "url",
        "url",
        gate=gate("http https ftp www")),
    IdPattern("uuid", _c(
        r"(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        r"(?![\w-])"), 0.9, "generic", "uuid", normalize=str.lower,
        gate=gate("-")),
    IdPattern("iban", _c(
        r"(?<![\w-])[A-Z]{2}\d{2}(?:\ ?[A-Z0-9]{4}){2,7}(?:\ ?[A-Z0-9]{1,3})?(?![\w-])"),
        0.97, "generic", "iban", validator=valid_iban, normalize=compact,
        gate=gate("<A0>")),
    IdPattern("card_masked", _c(
        r"(?<![\w*])(?:[*xX•]{4}[\ -]?){1,3}\d{4}(?![\w-]|[.,]\d)"), 0.9, "generic", "card",
        validator=lambda v: any(ch in v for ch in "*•") or v[:4] in ("xxxx", "XXXX"),
        normalize=lambda v: "****" + v[-4:],
        gate=gate(DIGIT, ["*", "•", "xxxx", "xxxxxxxx", "xxxxxxxxxxxx"])),
    IdPattern("card_ending", _c(
        r"(?<![A-Za-z])(?i:ending(?:\ in)?|ends\ (?:in|with)|last\ (?:four|4)"
        r"(?:\ digits)?(?:\ are)?)"
        r"\W{1,3}(?P<id>\d{4})(?![\w-]|[.,]\d)"), 0.85, "generic", "card",
        context=rx(r"(?i)\b(?:card|visa|mastercard|amex|debit|credit|account)\b"),
        group="id", normalize=lambda v: "****" + v,
        gate=gate(DIGIT, "ending ends last", "card visa mastercard amex debit credit account")),
    IdPattern("phone_international", _c(
        r"(?<![\w+])\+\d{1,3}(?:[\ .-]?\(\d{1,4}\))?(?:[\ .-]\d{1,6}){1,6}(?![\d])"
        r"|(?<![\w+])\+\d{7,15}(?![\d])"), 0.95, "phone", "phone",
        gate=gate(DIGIT, "+")),
    IdPattern("phone_nanp", _c(
        r"(?<![\w+,/-])(?<!\d\.)(?:1[\ .-])?(?:\(\d{3}\)\ ?|\d{3}[\ .-])\d{3}[\ .-]\d{4}"
        r"(?![\w]|[.,-]\d)"), 0.9, "phone", "phone",
        gate=gate("<ddd>")),
    IdPattern("phone_national", _c(
        r"(?<![\w+.,:/$€£-])(?:\(?0?\d{1,4}\)?(?:[\ .-]\d{2,4}){2,5}|\d{8,12})"
        r"(?![\w]|[.,:/-]\d)"), 0.7, "phone_context", "phone",
        gate=gate(DIGIT)),
    IdPattern("ipv4", _c(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)"), 0.9, "generic",
              "ip", validator=valid_ipv4,
              veto=rx(r"(?i)\b(?:version|v|release|build|python|node)\W{0,3}$"),
        gate=gate("<w.w>", DIGIT)),
    IdPattern("ipv6", _c(
        r"(?<![\w:.])(?=[0-9A-Fa-f:]{0,39}[0-9A-Fa-f])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}"
        r"(?![\w:])"), 0.9, "generic", "ip", validator=valid_ipv6, normalize=normal_ipv6,
        gate=gate(":")),
    IdPattern("code", _c(
        r"(?<![\w-])(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]{0,9}(?:-[A-Z0-9]{1,12}){1,4}(?![\w-])"),
        0.85, "code",
        gate=gate(DIGIT, "-")),
    IdPattern("pnr", _c(
        r"(?<![A-Za-z])(?i:booking\ (?:reference|ref|code)|PNR|record\ locator|"
        r"reservation\ (?:code|ref)|"
        r"confirmation\ code)(?:\ (?:is|was|number|no\.?))?[\ :#]{1,3}"
        r"(?P<id>[A-Z0-9]{6})(?![\w-])"), 0.9, "generic", "booking", group="id",
        normalize=str.upper,
        gate=gate("booking pnr record reservation confirmation")),
    IdPattern("flight", _c(
        r"(?<![\w-])(?P<id>(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\ ?\d{2,4})(?![\w-]|[.,:]\d)"),
        0.88, "generic", "flight", group="id",
        context=context_words(_FLIGHT_WORDS.split()),
        normalize=lambda v: v.replace(" ", "").upper(),
        gate=gate(DIGIT, _FLIGHT_WORDS)),
    IdPattern("flight_airline", _c(r"(?<![\w-])(?P<id>[A-Z][A-Z0-9]\d{2,4})(?![\w-]|[.,:]\d)"),
              0.86, "generic", "flight", group="id",
              validator=lambda v: v[:2] in AIRLINES,
        gate=gate("<A0>")),
    IdPattern("alnum_code", _c(
        r"(?<![\w#-])(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{5,24}(?![\w-])"), 0.75, "code",
        gate=gate("<A0>")),
    IdPattern("hash_number", _c(
        r"(?<![\w#&])\#(?:\d{2,12}|(?=[A-Z-]*\d)[A-Z0-9][A-Z0-9-]{2,20})(?![\w-])"), 0.85,
        "code",
        gate=gate("#")),
    IdPattern("context_number", _c(
        r"(?<![A-Za-z])(?P<ctx>(?i:order|booking|reservation|confirmation|invoice|ticket|case|account|"
        r"tracking|claim|hold|policy|membership|member|customer|transaction|issue|PR|"
        r"pull\ request|reference|ref|receipt|shipment|parcel|return|RMA|job|request|"
        r"incident|loan|contract|subscription|application|voucher|quote|id|student|patient|"
        r"employee|staff|meter|serial|passport|badge|container))"
        r"\ ?(?:(?i:number|no\.?|num|id|code)\ ?)?(?:(?<=\ )(?i:is|was)\ (?=\d{5}|(?!19|20)\d{4}))?"
        r"[:#]?\ ?"
        r"(?P<id>\d{3,16}(?:[-/]\d{1,10}){0,3})(?![\w]|[.,:-]\d)"), 0.8, "code",
        gate=gate("<ddd>", _CONTEXT_NUMBER_TOKENS)),
    IdPattern("context_spaced_code", _c(
        r"(?<![A-Za-z])(?i:container|b/l|bill\ of\ lading|awb|air\ waybill|waybill|consignment|"
        r"booking|tracking|shipment|order|reference|ref)"
        r"(?:\ (?i:number|no\.?|id|ref))?(?:\ (?i:is|was))?[\ :#]{1,3}"
        r"(?P<id>[A-Z]{2,4}\ \d{5,12}(?:[-\ ]\d)?)(?![\w-])"), 0.8, "generic", "reference",
        group="id",
        gate=gate(DIGIT, [" "], "container b bill awb air waybill consignment booking tracking "
                                "shipment order reference ref")),
    IdPattern("container", _c(
        r"(?<![\w-])[A-Z]{3}[UJZ]\ ?\d{6}[-\ ]?\d(?![\w-])"), 0.9, "generic", "container",
        validator=valid_container, gate=gate("<ddd>")),
    IdPattern("tariff_code", _c(
        r"(?<![A-Za-z])(?i:HS|tariff|commodity|customs)\ (?i:code)(?:\ (?i:is|was))?[\ :#]{1,3}"
        r"(?P<id>\d{4}(?:[.\ ]?\d{2}){1,4})(?![\w]|[.,]\d)"), 0.85, "generic", "tariff_code",
        group="id", gate=gate(DIGIT, "hs tariff commodity customs", "code")),
    IdPattern("card_short", _c(
        r"(?<![A-Za-z])(?i:card)\ (?P<id>\d{4})(?![\w]|[.,/:-]\d|\ \d)"
        r"|(?<![A-Za-z])(?i:the)\ (?P<id>\d{4})\ (?i:card)(?![A-Za-z])"), 0.8, "generic", "card",
        group="id", normalize=lambda v: "****" + v, gate=gate(DIGIT, "card")),
    IdPattern("git_sha", _c(
        r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[a-f]*\d)[0-9a-f]{7,40}(?![\w-])"), 0.6, "hash",
        "commit",
        gate=gate("<h0>")),
    IdPattern("git_branch", _c(
        r"(?<![A-Za-z])(?i:branch(?:es)?|git\ checkout(?:\ -b)?|checkout\ -b|git\ switch(?:\ -c)?)"
        r"(?:\ (?:called|named))?"
        r"\ [`'\"]?(?P<id>[A-Za-z0-9][\w.-]{0,99}(?:/[\w.-]{1,100}){0,5})"
        r"|[`'\"]?(?P<id>[A-Za-z0-9][\w.-]{0,99}(?:/[\w.-]{1,100}){1,5})[`'\"]?\ (?i:branch)\b"),
        0.8, "branch", "branch", group="id",
        gate=gate("branch branches checkout switch")),
    IdPattern("env_dollar", _c(
        r"(?<![\w$])\$(?:[A-Z_][A-Z0-9_]{1,63}|\{[A-Za-z_]\w{0,63}\})(?![\w])"), 0.85,
        "generic", "env_var",
        gate=gate("$")),
    IdPattern("env_percent", _c(r"(?<![\w%])%[A-Za-z_][A-Za-z0-9_]{1,63}%(?![\w%])"), 0.85,
              "generic", "env_var",
        gate=gate("%")),
    IdPattern("env_name", _c(r"(?<![\w$%-])[A-Z][A-Z0-9]{0,30}(?:_[A-Z0-9]{1,30}){1,6}(?![\w-])"),
              0.75, "generic", "env_var",
              context=rx(r"(?i)\b(?:env(?:ironment)?|variables?|vars?|export|"
                                    r"set|unset|secrets?|config|\.env)\b"),
        gate=gate("_", "env environment variable variables var vars export set unset secret "
                       "secrets config")),
    IdPattern("command_backticks", _c(r"`(?P<id>[^`\n]{2,300})`"), 0.82, "command", "command",
              group="id",
        gate=gate("`")),
    # A shell transcript line: "$ go test ./..." (in a tool result or pasted output).
    IdPattern("command_prompt", _c(
        r"(?:^|(?<=\n))[\ \t]*\$[\ \t]+(?P<id>[^\s$][^\n]{1,299}?)[\ \t]*(?=\n|$)"), 0.82,
        "command",
        "command", group="id",
        gate=gate("$")),
    IdPattern("command_run", _c(
        r"(?i:\b(?:run|running|runs|ran|execute|executing|exec|type|typing))\ "
        r"(?P<id>[\w./-]{1,100}(?:\ [^\s`]{1,200}){0,15})"), 0.82, "command", "command",
        group="id",
        gate=gate("run running runs ran execute executing exec type typing")),
    IdPattern("table_before", _c(
        r"(?i:\btables?)\ [`'\"]?(?P<id>[A-Za-z_][\w.]{0,63})[`'\"]?(?![\w])"), 0.8, "table",
        "table", group="id", needs=rx(_DB_CONTEXT),
        gate=gate("table tables")),
    IdPattern("table_after", _c(
        r"(?i:\b(?:the|a|an|our|your|this|that|each|every))\ [`'\"]?(?P<id>[A-Za-z_][\w.]{0,63})"
        r"[`'\"]?\ (?i:table)\b"), 0.8, "table", "table", group="id",
        needs=rx(_DB_CONTEXT),
        gate=gate("table")),
    IdPattern("flight_spaced", _c(
        r"(?<![\w-])(?P<id>[A-Z][A-Z0-9]\ \d{1,4})(?![\w-]|[.,:]\d)"), 0.86, "generic", "flight",
        group="id", needs=_TRAVEL_TURN, validator=lambda v: v[:2] in AIRLINES,
        normalize=lambda v: v.replace(" ", ""),
        gate=gate(DIGIT, [" "], _TRAVEL_WORDS)),
    IdPattern("train_number", _c(
        r"(?<![\w-])(?P<id>[A-Z]{2,3}\ ?\d{2,5})(?![\w-]|[.,:]\d)"), 0.86, "generic", "train",
        group="id", needs=_TRAVEL_TURN,
        validator=lambda v: v.split(" ")[0].rstrip("0123456789") in RAIL_PRODUCTS,
        normalize=lambda v: v.replace(" ", ""),
        gate=gate(DIGIT, _TRAVEL_WORDS)),
    IdPattern("version_semver", _c(
        r"(?<![\w.-])v?\d{1,4}\.\d{1,4}\.\d{1,6}(?:-[0-9A-Za-z]{1,20}(?:\.[0-9A-Za-z]{1,20}){0,3})?"
        r"(?![\w-]|\.\d)"), 0.8, "generic", "version", validator=_looks_like_version,
        veto=rx(r"(?i)\b(?:section|sections|clause|chapter|article|paragraph|para|"
                           r"step|figure|fig|table|appendix|rule|§)\W{0,3}$"),
        normalize=lambda v: v.lstrip("vV"),
        gate=gate("<w.w>", DIGIT)),
    IdPattern("version_context", _c(
        r"(?i:\bversions?|\bver\.?|\brelease[sd]?|\bbuild|\bpython|\bnode(?:\.js|js)?|"
        r"\bpostgres(?:ql)?|\bmysql|\bmariadb|\bredis|\bjava|\bjdk|\bgo|\bruby|\bphp|\brust|"
        r"\bios|\bandroid|\bmacos|\bubuntu|\bdebian|\bkernel|\bdjango|\brails|\breact|\bnpm|"
        r"\bpip|\bfixed\ in|\bupgraded?\ to|\bupdated?\ to|\bbump(?:ed)?\ to|"
        r"\bdowngraded?\ to|\bpinned\ to|\bclient|\bfirmware)"
        r"\W{1,4}(?P<id>v?\d{1,4}(?:\.\d{1,6}){1,3})(?![\w-]|\.\d)"
        r"|(?<![\w.-])(?P<id>v\d{1,4}(?:\.\d{1,6}){1,3})(?![\w-]|\.\d)"), 0.8, "generic",
        "version", group="id", normalize=lambda v: v.lstrip("vV"),
        gate=gate("<w.w>", DIGIT)),
    IdPattern("git_branch_default", _c(
        r"(?i:\b(?:into|onto|on|to|target(?:ing)?|against|off|from|rebase(?:d)?|merge(?:d)?|"
        r"push(?:ed)?|checkout|switch|branch))\ (?:the\ )?[`'\"]?"
        r"(?P<id>main|master|develop|trunk)(?![\w/-])"
        r"(?!\ (?!(?:branch|after|before|and|or|but|so|then|once|first|now|today|when|if|"
        r"with|again|too)\b)[a-z])"), 0.8, "generic",
        "branch", group="id", needs=rx(_GIT_TURN),
        gate=gate("main master develop trunk", _GIT_WORDS)),
    IdPattern("git_branch_prefixed", _c(
        r"(?<![\w/.-])(?P<id>(?:feature|feat|fix|bugfix|hotfix|release|releases|chore|topic)"
        r"/[\w.-]{0,99}[\w-](?:/[\w.-]{0,99}[\w-]){0,3})(?![\w/-]|\.\w)"), 0.8, "generic",
        "branch", group="id", needs=rx(_GIT_TURN),
        gate=gate("/", "feature feat fix bugfix hotfix release releases chore topic", _GIT_WORDS)),
    IdPattern("git_sha_turn", _c(
        r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[a-f]*\d)[0-9a-f]{7,12}(?![\w-])"), 0.6, "generic",
        "commit", needs=rx(_GIT_TURN),
        gate=gate("<h0>", _GIT_WORDS)),
    IdPattern("dotfile", _c(
        rf"(?<![\w/.@-])\.(?:{_DOTFILES})"
        r"(?:\.[A-Za-z0-9_-]{1,20}){0,3}(?![\w-]|\.\w)"), 0.75, "path", "path",
        gate=gate(".", words_of(*_DOTFILES.split("|")))),
    IdPattern("config_key", _c(
        r"(?<=`)(?P<id>[a-z_][a-z0-9_-]{0,40}(?:\.[a-z_][a-z0-9_-]{0,40}){2,8})(?=`)"
        r"|(?i:\b(?:set|raise|lower|increase|decrease|key|setting|option|field|property))"
        r"\ (?:the\ )?(?P<id>[a-z_][a-z0-9_-]{0,40}(?:\.[a-z_][a-z0-9_-]{0,40}){2,8})(?![\w.-])"),
        0.76, "generic", "config_key", group="id",
        validator=lambda v: v.rsplit(".", 1)[-1] not in _FILE_EXT.split("|"),
        gate=gate("<w.w>")),
    IdPattern("env_name_code", _c(
        r"(?<![\w$%-])[A-Z][A-Z0-9]{1,30}(?:_[A-Z0-9]{2,30}){1,6}(?![\w-])"), 0.74, "generic",
        "env_var", needs=_CODE_TURN,
        gate=gate("_")),
    IdPattern("env_assign", _c(
        r"(?<=`|\bexport\ )(?P<id>[A-Z][A-Z0-9]{0,30}(?:_[A-Z0-9]{1,30}){0,6}=[^\s`'\"]{1,200})"),
        0.83, "generic", "env_var", group="id",
        gate=gate("=")),
    IdPattern("db_object", _c(
        r"(?i:\b(?:relation|tables?|index(?:es)?|views?|creates?|created|drops?|dropped|"
        r"truncate|alter|join|into|update|sequence))\ (?:the\ |table\ |index\ )?[`'\"]?"
        r"(?P<id>[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6})(?![\w-])"), 0.78, "generic",
        "table", group="id", needs=rx(_DB_CONTEXT),
        gate=gate("_")),
    IdPattern("slash_reference", _c(
        r"(?<![\w/.-])[A-Z]{1,6}(?:/[A-Z0-9]{1,12}){1,4}(?![\w/-])"), 0.8, "code",
        gate=gate("/")),
    IdPattern("ticket_key", _c(
        r"(?i:\b(?:close[sd]?|closing|resolve[sd]?|reopen(?:ed)?|escalat(?:e|ed|ing)|assign(?:ed)?"
        r"|link(?:ed)?|fix(?:es|ed)?|tickets?|issues?|bugs?|stor(?:y|ies)|epics?|tasks?|jira))"
        r"\ (?:the\ )?(?P<id>[A-Z][A-Z0-9]{1,9}-\d{1,6})(?![\w-])"), 0.84, "generic", "ticket",
        group="id",
        gate=gate(DIGIT, "-")),
    # A tracker key with no cue word before it ("for ENG-77 we need ..."): only in a turn
    # about tracked work, and never a standard's name (UTF-8, SHA-256, ISO-8601).
    IdPattern("ticket_key_bare", _c(
        r"(?<![\w/.-])(?P<id>(?!(?:UTF|SHA|ISO|RFC|COVID|GPT|AES|MD|TLS|SSL|HTTP|IPV|CVE|ECMA|ES|"
        r"PEP|BS|EN|IEC|ANSI|IEEE|DDR|USB|LTE|PCI|RAID|WPA|MP|COM|SCSI|PS|UC|TH|ST|ND|RD)-)"
        r"[A-Z][A-Z0-9]{1,9}-\d{1,6})(?![\w-]|\.\d)"), 0.7, "generic", "ticket", group="id",
        needs=rx(_WORK_TURN),
        gate=gate(DIGIT, "-")),
    IdPattern("prefixed_token", _c(
        r"(?<![\w-])[a-z]{2,8}_(?:[a-z]{2,8}_)?(?=[A-Za-z0-9]{0,60}\d)(?=[A-Za-z0-9]{0,60}[A-Z])"
        r"[A-Za-z0-9]{6,60}(?![\w-])"), 0.8, "generic",
        gate=gate(DIGIT, "_")),
    IdPattern("eticket", _c(r"(?<![\w-])\d{3}[-\ ]?\d{10}(?![\w-]|[.,]\d)"), 0.85, "generic",
              "ticket", context=rx(r"(?i)\b(?:e-?tickets?|tickets?)\b"),
        gate=gate("<ddd>", "ticket tickets eticket etickets")),
    IdPattern("vehicle_plate", _c(
        r"(?i:\b(?:registration|reg\.?|plates?|licen[cs]e\ plate|number\ plate|vehicle|car))"
        r"(?:\ (?:number|no\.?|is|was)){0,2}[\ :#]{1,3}"
        r"(?P<id>[A-Z0-9]{1,4}(?:[-\ ][A-Z0-9]{1,4}){1,3})(?![\w-])"), 0.8, "generic",
        "registration", group="id", validator=_mixed_code,
        gate=gate(DIGIT, "registration reg plate plates licence license number vehicle car")),
    IdPattern("host_named", _c(
        r"(?i:\b(?:hosts?|server|node|machine|instance|vm|box|on|ssh(?:\ into)?|to))\ [`'\"]?"
        r"(?P<id>[a-z][a-z0-9]{1,20}(?:-[a-z0-9]{1,20}){1,5})(?![\w.-])"), 0.74, "generic",
        "hostname", group="id", needs=_IT_TURN, validator=lambda v: any(c.isdigit() for c in v),
        gate=gate(DIGIT, "-")),
    IdPattern("user_name", _c(
        r"(?i:\b(?:user(?:name)?|iam\ user|login|service\ account))[\ :]{1,3}[`'\"]?"
        r"(?P<id>[a-z][a-z0-9]{1,30}(?:[-_.][a-z0-9]{1,30}){1,4})(?![\w-]|\.\w)"), 0.72,
        "generic", "username", group="id",
        gate=gate("user username iam login service")),
    IdPattern("id_assignment", _c(
        r"(?<![\w.])(?P<key>[a-z][a-z0-9]{0,30}_id)\ {0,2}(?:==?|:)\ {0,2}['\"]?"
        r"(?P<id>(?=[A-Za-z0-9-]{0,40}\d)[A-Za-z0-9][A-Za-z0-9-]{1,40})(?![\w-])"), 0.8,
        "generic", "reference", group="id",
        gate=gate(DIGIT, "_")),
    IdPattern("exit_status", _c(
        r"(?i:\bexit(?:ed)?\ (?:code|status)|\bexit(?:ed)?\ with(?:\ code)?|\breturn\ code|"
        r"\bkilled\ by\ signal)\W{1,3}(?P<id>\d{1,3})(?![\w]|[.,]\d)"), 0.82, "generic",
        "exit_code", group="id",
        gate=gate(DIGIT, "exit exited return killed")),
    IdPattern("http_status", _c(
        r"(?i:\bhttps?|\bstatus(?:\ code)?|\breturn(?:s|ed|ing)?|\bgot|\bgetting|\bgives|"
        r"\bgiving|\bthrows?|\berror|\bresponds?\ with|\bresponse|\bserv(?:es|ing))"
        r"(?:\ (?:an?|with|the))?\W{1,3}(?P<id>[1-5]\d\d)s?(?![\w]|[.,:]\d)"), 0.8, "generic",
        "http_status", group="id", needs=_HTTP_TURN, validator=lambda v: v in HTTP_STATUSES,
        gate=gate("<ddd>", _HTTP_WORDS)),
    IdPattern("json_id_number", _c(
        r"\"(?!(?i:zip|postal|post|area|country|currency|lang(?:uage)?|duration|amount|count|"
        r"total|status|http_status|size|port|year|age)[_\"])"
        r"(?P<key>(?:[a-z][a-z0-9]{0,30}_){0,3}(?:id|no|number|code|pipeline|build|run|job|pr|"
        r"issue|ticket|order|invoice|case|claim|account|customer|member|incident)"
        r"|[a-z][a-z0-9]{0,30}(?:Id|No|Number|Code))\"\ {0,2}:\ {0,2}"
        r"(?P<id>\d{2,20})(?![\w.])"), 0.78, "generic", "reference", group="id",
        gate=gate(DIGIT, '"')),
    IdPattern("path_unc", _c(
        r"(?<![\w\\])\\\\[A-Za-z0-9._$-]{1,255}(?:\\[^\\\s/:*?\"<>|,;]{1,255}){1,40}\\?"),
        0.85, "path", "path",
        gate=gate("\\")),
    IdPattern("path_unix", _c(
        r"(?<![\w/.:~@-])(?:~|\.{1,2})?/(?:[\w.@+-]{1,255}/){0,40}[\w.@+-]{1,255}/?"),
        0.8, "path", "path",
        gate=gate("/")),
    IdPattern("path_relative", _c(
        r"(?<![\w/.:~@\\-])[\w.-]{1,255}(?:/[\w.@+-]{1,255}){1,40}/?"
        r"|(?<![\w/.:~@\\-])[A-Za-z_][\w.-]{1,255}/(?![\w/])"), 0.7, "path", "path",
        gate=gate("/")),
    IdPattern("path_windows", _c(
        r"(?<![\w])[A-Za-z]:\\(?:[^\\\s/:*?\"<>|]{1,255}\\){0,40}[^\\\s/:*?\"<>|,;]{0,255}"),
        0.8, "path", "path",
        gate=gate("\\")),
    IdPattern("file_name", _c(rf"(?<![\w/.@-])[\w-]{{1,200}}\.(?:{_FILE_EXT})(?![\w.]|\.\w)"),
              0.6, "path", "path",
        gate=gate(".", _spelled(_FILE_EXT))),
    IdPattern("hostname", _c(
        r"(?<![\w.@/:-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,10}"
        rf"(?:{_TLD})(?::\d{{2,5}})?(?![\w-]|\.\w)"), 0.7, "generic", "hostname",
        validator=lambda v: not v[:1].isupper() or "." in v.split(".", 1)[1],
        normalize=str.lower,
        gate=gate("<w.w>", _TLD.split("|"))),
    IdPattern("handle", _c(r"(?<![\w@.])@[A-Za-z_][A-Za-z0-9_]{1,38}(?![\w@-]|\.\w)"), 0.8,
              "generic", "handle", normalize=str.lower,
        gate=gate("@")),
)
