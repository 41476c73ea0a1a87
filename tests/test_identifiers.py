"""The identifier extractor: codes, context numbers, phones, emails, URLs and paths."""

from __future__ import annotations

import pytest

from extractors.base import TurnView
from extractors.values.identifiers import RegexIdentifiers


def ids(text: str, role: str = "assistant") -> list:
    return RegexIdentifiers().extract(TurnView(thread="t", number=1, role=role, text=text))


def spans(text: str) -> list[tuple[str, str, str]]:
    return [(c.text, c.subtype, c.value["normalized"]) for c in ids(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'd like to return it. Order A-77215.", [("A-77215", "order", "A-77215")]),
        ("held under reference HLD-30417 until", [("HLD-30417", "hold", "HLD-30417")]),
        ("Your invoice INV-2026-0042 is attached", [("INV-2026-0042", "invoice", "INV-2026-0042")]),
        ("Ticket #4921 is open", [("#4921", "ticket", "4921")]),
        ("my order 4921 never came", [("4921", "order", "4921")]),
        ("booking number: 558812", [("558812", "booking", "558812")]),
        ("case cs-ref? no: case CS-2026-00417.", [("CS-2026-00417", "case", "CS-2026-00417")]),
        ("Tracking 1Z999AA10123456784 shows", [("1Z999AA10123456784", "tracking",
                                               "1Z999AA10123456784")]),
        ("my order number is 45219", [("45219", "order", "45219")]),
        ("the case was 2024 all along", []),  # a year after "was", not a case number
        ("the suitcase 1234 is blue", []),  # a word inside a word is no context
        ("student, ID 20419876.", [("20419876", "reference", "20419876")]),
        ("Our container MSKU 702914-3 from", [("MSKU 702914-3", "reference",
                                              "MSKU 702914-3")]),
        ("B/L number is MAEU 238841927.", [("MAEU 238841927", "reference", "MAEU 238841927")]),
        ("HS code 9405.42, 1,240 cartons", [("9405.42", "tariff_code", "9405.42")]),
        ("tied to card 9032, so", [("9032", "card", "****9032")]),
        ("Once the 5518 card arrives", [("5518", "card", "****5518")]),
        ("after the deploy of a3f9c21.", [("a3f9c21", "commit", "a3f9c21")]),
    ],
)
def test_codes(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize(
    "text, span, normalized",
    [
        ("Call 415-286-4371 today", "415-286-4371", "+14152864371"),
        ("at +44 20 7493 4545.", "+44 20 7493 4545", "+442074934545"),
        ("My mobile is +353 87 412 9930.", "+353 87 412 9930", "+353874129930"),
        ("their number is (650) 555-1234, free", "(650) 555-1234", "+16505551234"),
        ("It is +1 559-442-1110. Done", "+1 559-442-1110", "+15594421110"),
        ("you can try contacting them at 1 40 62 05 00.", "1 40 62 05 00", "140620500"),
        ("Its number is 20 7071 5029", "20 7071 5029", "2070715029"),
        ("The phone number is 12-559 9034 and", "12-559 9034", "125599034"),
        ("+60 3-2110 2211", "+60 3-2110 2211", "+60321102211"),
        ("Scheduled.408-265-4808 is the phone number", "408-265-4808", "+14082654808"),
    ],
)
def test_phones(text: str, span: str, normalized: str) -> None:
    (cand,) = ids(text)
    assert (cand.text, cand.subtype, cand.value["normalized"]) == (span, "phone", normalized)


@pytest.mark.parametrize(
    "text, span, subtype, normalized",
    [
        ("mail Bob.Smith@Example.com.", "Bob.Smith@Example.com", "email", "bob.smith@example.com"),
        ("see https://example.com/a?b=1).", "https://example.com/a?b=1", "url",
         "https://example.com/a?b=1"),
        ("open www.example.org/page, then", "www.example.org/page", "url", "www.example.org/page"),
        ("edit src/app/models.py now", "src/app/models.py", "path", "src/app/models.py"),
        ("see /etc/nginx/nginx.conf.", "/etc/nginx/nginx.conf", "path", "/etc/nginx/nginx.conf"),
        ("don't touch migrations/ please", "migrations/", "path", "migrations/"),
        ("in C:\\Users\\bob\\file.txt now", "C:\\Users\\bob\\file.txt", "path",
         "C:\\Users\\bob\\file.txt"),
        ("Commit 9f3c2ab broke it", "9f3c2ab", "commit", "9f3c2ab"),
        ("the uplink is Te1/1/4 now", "Te1/1/4", "port", "Te1/1/4"),
        ("shut GigabitEthernet2/0/17 first", "GigabitEthernet2/0/17", "port",
         "GigabitEthernet2/0/17"),
        ("Sort code: 40-11-62, please", "40-11-62", "sort_code", "40-11-62"),
        ("the header says `amount_eur` now", "amount_eur", "code_name", "amount_eur"),
        ("then `load_rows()` fails", "load_rows()", "code_name", "load_rows()"),
        ("after the deploy db-orders-standby-03 lags", "db-orders-standby-03", "hostname",
         "db-orders-standby-03"),
    ],
)
def test_other_identifiers(text: str, span: str, subtype: str, normalized: str) -> None:
    (cand,) = ids(text)
    assert (cand.text, cand.subtype, cand.value["normalized"]) == (span, subtype, normalized)


@pytest.mark.parametrize(
    "text",
    [
        "Back in 2026 the price was $1,240 and now €930.",
        "Meet at 14:00 or 18:30, 24/7, and/or whenever.",
        "It rents for $4,450 /month at 22281 Center Street #57.",
        "We have 2 adults, 3 baths, 81 degrees and 25 percent humidity.",
        "Listening on port 8080; use UTF-8 and SHA-256.",
        "Wait, what station does it arrive at/ and when do I pay now/",
        "delivered 2026-10-08, call ahead",
        "The color is #FF0000 and the Eircode D02 X285.",
        # a date with dashes is no sort code; a word with a number is no host
        "It shipped 12-03-26 with the follow-up-2 notes, 1/2 done.",
    ],
)
def test_no_flood(text: str) -> None:
    assert ids(text) == []


def test_a_sort_code_and_its_account_number_side_by_side() -> None:
    found = [(c.text, c.subtype) for c in ids("debits on 20-45-77 53018846 since May")]
    assert found == [("20-45-77", "sort_code"), ("53018846", "account")]


@pytest.mark.parametrize(
    "text, label",
    [
        ('{"hold_id": "HLD-30417", "slot": "2026-12-02T14:00/18:00"}', "hold"),
        ('{"booking_ref": "COL-66104"}', "booking"),
        ('{"released": "HLD-30417"}', None),
        ("Booked: Thursday 3 December, 14:00-18:00, reference COL-66104.", "booking"),
        ("the order number A-77215 is enough", "order"),
    ],
)
def test_label(text: str, label: str | None) -> None:
    (cand,) = ids(text)
    assert cand.label == label


def test_tool_json_does_not_flood() -> None:
    text = ('{"order_id": "A-77215", "item": "Brera Duo espresso machine", "price_eur": 1240.0, '
            '"delivery_charge_eur": 18.0, "delivered_on": "2026-10-08", "status": "delivered"}')
    assert [c.text for c in ids(text, role="tool")] == ["A-77215"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("claim CLM-558812 and policy POL-99812",
         [("CLM-558812", "claim", "CLM-558812"), ("POL-99812", "policy", "POL-99812")]),
        ("Your booking reference is QXZTRM.", [("QXZTRM", "booking", "QXZTRM")]),
        ("PNR: K7TQ2M", [("K7TQ2M", "booking", "K7TQ2M")]),
        ("the share \\\\fs01\\share\\q3.xlsx today",
         [("\\\\fs01\\share\\q3.xlsx", "path", "\\\\fs01\\share\\q3.xlsx")]),
        ("checkout the feature/foo-bar branch", [("feature/foo-bar", "branch", "feature/foo-bar")]),
        ("I pushed to branch fix-login-bug", [("fix-login-bug", "branch", "fix-login-bug")]),
        ("git checkout -b release/2.1", [("release/2.1", "branch", "release/2.1")]),
        ("Deployed 3b18e512dba79e4c8300dd08aeb37f8e728b8dad to prod",
         [("3b18e512dba79e4c8300dd08aeb37f8e728b8dad", "commit",
           "3b18e512dba79e4c8300dd08aeb37f8e728b8dad")]),
        ("please revert 4e1f0a2c now", [("4e1f0a2c", "commit", "4e1f0a2c")]),
        ("echo $HOME and %APPDATA% then",
         [("$HOME", "env_var", "$HOME"), ("%APPDATA%", "env_var", "%APPDATA%")]),
        ("set DATABASE_URL in the env file", [("DATABASE_URL", "env_var", "DATABASE_URL")]),
        ("run pytest -k slow and then push", [("pytest -k slow", "command", "pytest -k slow")]),
        ("Try running `git status` first.", [("git status", "command", "git status")]),
        ("run ./scripts/deploy.sh --prod.",
         [("./scripts/deploy.sh --prod", "command", "./scripts/deploy.sh --prod")]),
        ("drop the table `orders` from it", [("orders", "table", "orders")]),
        ("query the users table for active rows", [("users", "table", "users")]),
        ("id 123E4567-E89B-12D3-A456-426614174000 here",
         [("123E4567-E89B-12D3-A456-426614174000", "uuid",
           "123e4567-e89b-12d3-a456-426614174000")]),
        ("IBAN DE89 3704 0044 0532 0130 00 please",
         [("DE89 3704 0044 0532 0130 00", "iban", "DE89370400440532013000")]),
        ("to GB82 WEST 1234 5698 7654 32.",
         [("GB82 WEST 1234 5698 7654 32", "iban", "GB82WEST12345698765432")]),
        ("the visa ending in 4471", [("4471", "card", "****4471")]),
        ("charged to **** **** **** 4471", [("**** **** **** 4471", "card", "****4471")]),
        ("server 192.168.1.10 is down", [("192.168.1.10", "ip", "192.168.1.10")]),
        ("ping 2001:DB8:0:0::1 now", [("2001:DB8:0:0::1", "ip", "2001:db8::1")]),
        ("hit api.example.com:8443 first", [("api.example.com:8443", "hostname",
                                             "api.example.com:8443")]),
        ("my flight LH 1234 lands at 5", [("LH 1234", "flight", "LH1234")]),
        ("BA287 departs at 9", [("BA287", "flight", "BA287")]),
        ("ping @jsmith_dev on slack", [("@jsmith_dev", "handle", "@jsmith_dev")]),
    ],
)
def test_registry_subtypes(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "IBAN DE00370400440532013000 please",  # bad mod-97 checksum
        "IBAN DE89 3704 0044 0532 0130 01 please",
        "servers 999.1.1.1 and 10.0.0.256",
        "the address 10.0.0.300 is bogus",
        "time 14:00:00 sharp",
        "fiscal year ending 2026",
        "Sunnyvale, CA 94086 off I-5",
        "The branch of the bank on Main Street is closed",
        "My checkout date will be the 9th",
        "put it on the kitchen table",
        "book a table for two",
        "run errands tomorrow, I'll run the tests now",
        "meet @ 5pm, e.g. at Booking.com",
        "the hex deadbeef1234 appears",
        "I have 3 kids and 2 cars, flight at 10 AM for 4 people",
    ],
)
def test_registry_no_flood(text: str) -> None:
    assert ids(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Options: LH 1236 departing 12:40.", [("LH 1236", "flight", "LH1236")]),
        ("What if I miss LX 40?", [("LX 40", "flight", "LX40")]),
        ("EuroCity EC 317 leaves at 07:33.", [("EC 317", "train", "EC317")]),
        ("mobile +44 7700 900123.", [("+44 7700 900123", "phone", "+447700900123")]),
        ("two minutes after the deploy of version 2.14.0.", [("2.14.0", "version", "2.14.0")]),
        ("the known client bug fixed in 5.3.0 now", [("5.3.0", "version", "5.3.0")]),
        ("It is slow. Postgres 15.4.", [("15.4", "version", "15.4")]),
        ("Python 3.11.4 on port 8080", [("3.11.4", "version", "3.11.4")]),
        ("version 1.2.3.4 released", [("1.2.3.4", "version", "1.2.3.4")]),
        ("The migration 4f2a9c1e fails.", [("4f2a9c1e", "commit", "4f2a9c1e")]),
        ("Pushed, CI green. Target main, closes #512.",
         [("main", "branch", "main"), ("#512", "reference", "512")]),
        ("Someone pushed a key to release/2.3 today", [("release/2.3", "branch", "release/2.3")]),
        ("Add it to .env.test and push.", [(".env.test", "path", ".env.test")]),
        ("Raise `resources.limits.memory` now", [("resources.limits.memory", "config_key",
                                                  "resources.limits.memory")]),
        ("The CI job ran with VAT_ROUNDING unset.", [("VAT_ROUNDING", "env_var", "VAT_ROUNDING")]),
        ("Yes: `NODE_OPTIONS=--max-old-space-size=768` so", [
            ("NODE_OPTIONS=--max-old-space-size=768", "env_var",
             "NODE_OPTIONS=--max-old-space-size=768")]),
        ("the db index idx_orders_customer_id is missing", [
            ("idx_orders_customer_id", "table", "idx_orders_customer_id")]),
        ("Check `SELECT name FROM pg_indexes WHERE x = 1`.", [
            ("SELECT name FROM pg_indexes WHERE x = 1", "command",
             "SELECT name FROM pg_indexes WHERE x = 1")]),
        ("My travel policy is TRV/88/551203.", [("TRV/88/551203", "policy", "TRV/88/551203")]),
        ("Registration M-AB 1234. No.", [("M-AB 1234", "registration", "M-AB 1234")]),
        ("I'll close DBA-771 and add a check", [("DBA-771", "ticket", "DBA-771")]),
        ("the renewal charge ch_3QxT8aL2 still ran", [("ch_3QxT8aL2", "reference", "ch_3QxT8aL2")]),
        ("both on one ticket, 724-2189330451, so",
         [("724-2189330451", "ticket", "724-2189330451")]),
        ("The gateway service on stg-api-03 crashed", [("stg-api-03", "hostname", "stg-api-03")]),
        ("AKIA key, user ci-deployer.", [("ci-deployer", "username", "ci-deployer")]),
        ("Filter: (customer_id = 88123)", [("customer_id", "code_name", "customer_id"),
                                           ("88123", "reference", "88123")]),
        ('{"pipeline": 9921, "exit_code": 137}', [("9921", "reference", "9921"),
                                                 ("137", "reference", "137")]),
        ("It was OOM-killed (exit code 137) after", [("137", "exit_code", "137")]),
        ("our staging API returns 502 since 09:15", [("502", "http_status", "502")]),
    ],
)
def test_code_and_travel_classes(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "That is my version of events, and the flight was late.",
        "The main reason we moved the flight is cost.",
        "I will be on main street at noon; call me.",
        "A table for two at 19:00, please, near the window.",
        "We stayed in room 502 and the server was friendly.",
        "I returned 500 items to the store.",
        "Our office is in CA 94086 and the flight leaves at 9.",
        "Send it to PO 12 before the train leaves.",
        "The price rose to 1.240.000 in 2026.",
        "We met on 12.03.2026 at the station.",
        "The user experience on the new site is fine.",
        "Use SHA-256 and AES-256 for the key.",
        "The car was a red one, plate unknown.",
        "He exited with a smile, code 3.",
        "color: #333; background #512",
        "The report on the orders table takes 4.2 seconds.",
        "We have a cafe0123 code word.",
        '{"zip_code": 94086, "duration_s": 312}',
    ],
)
def test_code_and_travel_classes_no_flood(text: str) -> None:
    assert spans(text) == []


@pytest.mark.parametrize("text, found", [
    ("Container CSQU 305438-3 is at the quay", [("CSQU 305438-3", "container")]),
    ("box CSQU3054383 arrived", [("CSQU3054383", "container")]),
    ("box CSQU3054384 arrived", [("CSQU3054384", "reference")]),  # wrong check digit: a code
])
def test_container_numbers_need_their_check_digit(text: str, found) -> None:
    assert [(c.text, c.subtype) for c in ids(text)] == found


@pytest.mark.parametrize(
    "text, expected",
    [
        ("INVOICE_DIR points at list_overdue()", [("INVOICE_DIR", "code_name"),
                                                  ("list_overdue()", "code_name")]),
        ("are all 14 of them in the FIN-Staff group?", [("FIN-Staff", "name")]),
        ('the GPO drive map "Finance-Drives" from Update', [("Finance-Drives", "name")]),
        ("switch is sw-lon-fl3-02 i think", [("sw-lon-fl3-02", "hostname")]),
        ("user u-18822 dropped again", [("u-18822", "hostname")]),
        ("run `ipconfig /all` and check", [("ipconfig /all", "command")]),
        ("set `timeout-minutes: 20` and `30 3 * * 1-5`", [("timeout-minutes: 20", "code"),
                                                          ("30 3 * * 1-5", "code")]),
        ("my S: drive is gone, so is H:", [("S:", "drive"), ("H:", "drive")]),
        ("phone 00e0.4c68.1a2f on VLAN 320", [("00e0.4c68.1a2f", "mac"), ("VLAN 320", "place")]),
        ("the process (PID 21877) holds it", [("PID 21877", "place")]),
        ("merged as !327 in GitLab", [("!327", "pr")]),
        ("The BIC is COBADEFFXXX.", [("COBADEFFXXX", "bic")]),
        ("my tax code on the PAYE job changed to K475", [("K475", "tax_reference")]),
        ("under §288(2) BGB and section 7.2(a)", [("§288(2) BGB", "section"),
                                                   ("7.2(a)", "section")]),
        ("send it to Kastanienallee 12, 10435 Berlin", [("Kastanienallee 12, 10435 Berlin",
                                                        "address")]),
    ],
)
def test_technical_and_banking_shapes(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.text, c.subtype) for c in ids(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        'the json {"user_id": "u1", "status": "in_progress"}',  # JSON keys: the tool fields'
        "a Coca-Cola, in UTF-8, with SHA-256",
        "the follow-up-2 notes from mid-2024",
        "Please send FEEDBACK to DEUTDEFF soon.",  # BIC shapes, but no word of banks' codes
        "We met at Pier 17 in room 502.",
        "Which branch should this go on?",  # a verb after "branch" is no branch name
        "The BIC is HELLOWORLD.",  # not a country
    ],
)
def test_technical_shapes_no_flood(text: str) -> None:
    assert [c.text for c in ids(text)] == []
