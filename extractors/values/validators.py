"""Named checks and rewrites of a matched identifier, for pattern files to refer to.

A pattern names them (``validator = "iban"``, ``normalize = "compact"``) in
``identifier_patterns.toml`` or in a user's pattern file; :data:`VALIDATORS` and
:data:`NORMALIZERS` are every name a file may use (listed in ``docs/patterns.md``). A
validator is a predicate on the matched text (a checksum, a range, a known code); a
normalizer gives the candidate's ``value["normalized"]``. The word sets here are what
the validators look codes up in.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from stdnum import bic, iban, luhn

from extractors.text import guard

Validator = Callable[[str], bool]
Normalizer = Callable[[str], str]

#: Two-letter airline designators common enough to mark "BA287" as a flight on its own.
#: US state and other frequent two-letter codes ("CA", "NH", "AS") are left out on purpose.
AIRLINES: frozenset[str] = frozenset(
    "AA AC AF AI AM AY AZ BA B6 CX DL EI EK EY FR IB JL KE KL LH LX NZ OS QF QR SK SQ TK "
    "TP U2 UA VS W6 WN".split())
#: Rail products that prefix a train number ("EC 317", "ICE 1234").
RAIL_PRODUCTS: frozenset[str] = frozenset("EC IC ICE IR IRE RE RB RJ RJX TGV EN NJ ES".split())
#: HTTP status codes common enough to name an outage ("returns 502").
HTTP_STATUSES: frozenset[str] = frozenset(
    "200 201 202 204 301 302 303 304 307 308 400 401 403 404 405 406 408 409 410 411 412 413 "
    "415 418 422 425 429 500 501 502 503 504 505 507 508 520 521 522 523 524".split())
#: The alternatives of the ``file_ext`` fragment of ``identifier_patterns.toml``, as written
#: there (so "docx?" stays one entry, which no key segment equals); a config key whose
#: last part is one of them is a file name. ``tests/test_id_patterns.py`` checks the two agree.
FILE_EXTENSIONS: frozenset[str] = frozenset((
    "py|pyi|ipynb|js|mjs|ts|tsx|jsx|json|jsonl|md|rst|txt|yaml|yml|toml|cfg|ini|conf|sql|"
    "sh|bash|rs|go|java|kt|c|h|cc|cpp|hpp|cs|rb|php|html|css|scss|xml|csv|tsv|lock|env|"
    "log|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|zip|tar|gz|tgz|whl|db|sqlite|parquet"
).split("|"))


# --- validators ---------------------------------------------------------------------------

def valid_iban(value: str) -> bool:
    """Return True if ``value`` is an IBAN of its country's length and format with a valid
    mod-97 checksum (python-stdnum's ``iban``)."""
    return bool(iban.is_valid(value))


def valid_luhn(value: str) -> bool:
    """Return True if the digits of ``value`` pass the Luhn checksum (cards, IMEIs)."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return len(digits) >= 2 and bool(luhn.is_valid(digits))


def valid_bic(value: str) -> bool:
    """Return True if ``value`` is a BIC (SWIFT code) with a known country (python-stdnum's
    ``bic``)."""
    return bool(bic.is_valid(value))


def code_name(value: str) -> bool:
    """Return True if hyphen-joined capitalised parts read as a name someone set up
    ("FIN-Staff", "LON-Proxy-Settings", "Test-NetConnection", "PRN-3F-HP-M479") rather
    than words or a standard's name ("Coca-Cola", "UTF-8", "SHA-256"): a part is an
    acronym or CamelCase and some part has a lower-case letter; or, all capitals, a part
    mixes letters and digits."""
    parts = value.split("-")
    if any(ch.islower() for ch in value):
        return any(len(p) >= 2 and p.isupper() for p in parts) or any(
            guard.search(r"[a-z][A-Z]", p) for p in parts)
    return any(guard.search(r"[A-Z]\d|\d[A-Z]", p) for p in parts)


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


def masked_card(value: str) -> bool:
    """Return True if a card number is masked with "*" or "•", or starts "xxxx"/"XXXX"."""
    return any(ch in value for ch in "*•") or value[:4] in ("xxxx", "XXXX")


def airline_flight(value: str) -> bool:
    """Return True if a flight number starts with a known airline designator ("BA287")."""
    return value[:2] in AIRLINES


def rail_train(value: str) -> bool:
    """Return True if a train number starts with a rail product ("ICE 1234", "EC317")."""
    return value.split(" ")[0].rstrip("0123456789") in RAIL_PRODUCTS


def version_number(value: str) -> bool:
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


def not_file_name(value: str) -> bool:
    """Return True unless a dotted key ends in a file extension ("settings.local.py")."""
    return value.rsplit(".", 1)[-1] not in FILE_EXTENSIONS


def mixed_code(value: str) -> bool:
    """Return True if ``value`` has a letter and a digit and four or more of them."""
    chars = [ch for ch in value if ch.isalnum()]
    return len(chars) >= 4 and any(c.isalpha() for c in chars) and any(
        c.isdigit() for c in chars)


def has_digit(value: str) -> bool:
    """Return True if ``value`` holds a digit ("web-01", not "my-laptop")."""
    return any(c.isdigit() for c in value)


def http_status(value: str) -> bool:
    """Return True if ``value`` is a common HTTP status code (:data:`HTTP_STATUSES`)."""
    return value in HTTP_STATUSES


def plausible_host(value: str) -> bool:
    """Return True unless a host name starts upper-case with one dot ("Next.js" reads as
    a product, "Api.example.com" still as a host)."""
    return not value[:1].isupper() or "." in value.split(".", 1)[1]


#: Validators a pattern file may name (``validator = "iban"``).
VALIDATORS: dict[str, Validator] = {
    "iban": valid_iban, "luhn": valid_luhn, "ipv4": valid_ipv4, "ipv6": valid_ipv6,
    "container": valid_container, "masked_card": masked_card, "airline": airline_flight,
    "rail": rail_train, "version": version_number, "not_file_name": not_file_name,
    "mixed_code": mixed_code, "has_digit": has_digit, "http_status": http_status,
    "hostname": plausible_host, "bic": valid_bic, "code_name": code_name,
}


# --- normalizers --------------------------------------------------------------------------

def compact(value: str) -> str:
    """Return ``value`` upper-cased without spaces and dashes."""
    return guard.sub(r"[\s-]", "", value).upper()


def lower(value: str) -> str:
    """Return ``value`` lower-cased."""
    return value.lower()


def upper(value: str) -> str:
    """Return ``value`` upper-cased."""
    return value.upper()


def normal_ipv6(value: str) -> str:
    """Return the compressed lower-case form of an IPv6 address."""
    return ipaddress.IPv6Address(value).compressed


def card_last_four(value: str) -> str:
    """Return a card number as "****" and its last four characters."""
    return "****" + value[-4:]


def no_spaces(value: str) -> str:
    """Return ``value`` without spaces ("LH 1234" -> "LH1234")."""
    return value.replace(" ", "")


def no_spaces_upper(value: str) -> str:
    """Return ``value`` without spaces, upper-cased."""
    return value.replace(" ", "").upper()


def no_v(value: str) -> str:
    """Return a version without its leading "v" ("v1.2.3" -> "1.2.3")."""
    return value.lstrip("vV")


#: Normalizers a pattern file may name (``normalize = "compact"``).
NORMALIZERS: dict[str, Normalizer] = {
    "compact": compact, "lower": lower, "upper": upper, "ipv6": normal_ipv6,
    "card_last_four": card_last_four, "no_spaces": no_spaces,
    "no_spaces_upper": no_spaces_upper, "no_v": no_v,
}
