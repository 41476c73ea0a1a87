"""The shipped identifier table is data: identifier_patterns.toml, read by the same
function as a user's pattern file, giving the table the Python source used to hold."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
import regex

from extractors.errors import PatternError
from extractors.text.gates import DIGIT
from extractors.text.guard import DECLARED_LINEAR
from extractors.values import validators
from extractors.values.id_patterns import (
    FAMILIES,
    PATTERNS,
    SHIPPED_FILE,
    read_patterns,
)

#: The shipped names in their order (the order breaks ties between overlapping candidates).
NAMES = [
    "email", "url", "uuid", "iban", "card_masked", "card_ending", "phone_international",
    "phone_nanp", "phone_national", "ipv4", "ipv6", "code", "pnr", "flight", "flight_airline",
    "alnum_code", "hash_number", "context_number", "context_spaced_code", "container",
    "tariff_code", "card_short", "git_sha", "git_branch", "env_dollar", "env_percent",
    "env_name", "command_backticks", "code_name_backticks",
    "command_prompt", "command_run", "table_before",
    "table_after", "flight_spaced", "train_number", "version_semver", "version_context",
    "git_branch_default", "git_branch_prefixed", "git_sha_turn", "dotfile", "config_key",
    "env_name_code", "env_assign", "db_object", "slash_reference", "ticket_key",
    "ticket_key_bare", "prefixed_token", "eticket", "vehicle_plate", "host_named",
    "host_numbered", "switch_port", "sort_code", "account_after_sort_code",
    "user_name", "id_assignment", "exit_status", "http_status", "json_id_number", "path_unc",
    "path_unix", "path_relative", "path_windows", "file_name", "hostname", "handle",
    "snake_name", "caps_hyphen_name", "quoted_name", "numbered_slug", "inline_code",
    "drive_letter", "mac_address", "numbered_place", "merge_request", "bic", "tax_reference",
    "section_reference", "street_address",
]
BY_NAME = {p.name: p for p in PATTERNS}


def test_the_shipped_names_in_order() -> None:
    assert [p.name for p in PATTERNS] == NAMES


@pytest.mark.parametrize("pat", PATTERNS, ids=lambda p: p.name)
def test_every_shipped_pattern_is_gated_scored_verbose_and_linear(pat) -> None:
    assert pat.gate.clauses and all(pat.gate.clauses)
    assert 0 < pat.score <= 1 and pat.family in FAMILIES and not pat.user
    assert pat.pattern.linear and pat.pattern.flags & regex.VERBOSE
    assert pat.pattern.flags & regex.V0 and not pat.pattern.flags & regex.IGNORECASE
    for check in (pat.context, pat.needs, pat.veto):
        assert check is None or not (check.linear or check.flags & regex.VERBOSE)
    assert no_fragment_left(pat.pattern.pattern)
    # shipped patterns compile at first use: hold them to the checks a user file gets
    assert pat.pattern.compile().search("") is None



def no_fragment_left(source: str) -> bool:
    """No ``{name}`` left unexpanded (a misspelt fragment would stay literal)."""
    return regex.search(r"(?<!\\)\{[a-z][a-z0-9_]*\}", source) is None


def test_the_shipped_file_is_read_like_a_user_file(tmp_path: Path) -> None:
    copy = tmp_path / "identifier_patterns.toml"
    with SHIPPED_FILE.open("rb") as src, copy.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    declared = len(DECLARED_LINEAR)
    again = read_patterns(copy, shipped=True)
    del DECLARED_LINEAR[declared:]  # the same patterns again: tests/test_guard.py has them
    assert [(p.name, p.score, p.family, p.subtype, p.group, p.gate, p.pattern.pattern)
            for p in again] == [
        (p.name, p.score, p.family, p.subtype, p.group, p.gate, p.pattern.pattern)
        for p in PATTERNS]
    with pytest.raises(PatternError, match="unknown field 'family'"):
        read_patterns(copy)  # as a user's file: families and gates are the shipped table's


def test_gates_computed_from_fragments() -> None:
    assert {"doc", "docx", "jpg", "jpeg", "py"} <= BY_NAME["file_name"].gate.clauses[1]
    assert "docx?" not in BY_NAME["file_name"].gate.clauses[1]
    assert {"order", "ordernumber", "orderno", "ordercode", "pr", "prid"} <= (
        BY_NAME["context_number"].gate.clauses[1])
    assert {"env", "bash", "pre", "python", "gitlab"} <= BY_NAME["dotfile"].gate.clauses[1]
    assert {"com", "localhost"} <= BY_NAME["hostname"].gate.clauses[1]
    assert BY_NAME["flight_spaced"].gate.clauses[:2] == (frozenset({DIGIT}), frozenset(" "))


def test_the_file_extension_validator_reads_the_fragment() -> None:
    with SHIPPED_FILE.open("rb") as fh:
        fragment = "".join(tomllib.load(fh)["fragments"]["file_ext"])
    assert validators.FILE_EXTENSIONS == frozenset(fragment.split("|"))


def test_validators_and_normalizers_are_named_functions() -> None:
    for table in (validators.VALIDATORS, validators.NORMALIZERS):
        assert all(f.__name__ != "<lambda>" and f.__doc__ for f in table.values())
    named = set(validators.VALIDATORS.values()) | set(validators.NORMALIZERS.values())
    assert all(p.validator in named for p in PATTERNS if p.validator is not None)
    assert all(p.normalize in named for p in PATTERNS if p.normalize is not None)
