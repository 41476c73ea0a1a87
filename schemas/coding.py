"""A coding-agent session: the task, where the work happens, what failed, what was found."""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin

#: Commands that run tests, in the common runners' own words.
TEST_RUNNER = (r"\b(?:pytest|py\.test|tox|nox|unittest|jest|vitest|mocha|karma|rspec|phpunit|"
               r"ctest|bats|prove|(?:go|cargo|npm|pnpm|yarn|bun|deno|mvn|gradle|gradlew|dotnet|"
               r"mix|make|rake|swift|flutter|sbt|lein|zig)\b[^\n]*\btest\w*|"
               r"test:\w+|\w+\s+tests?\b)")
#: A branch the work is on: not the trunk it merges into.
WORK_BRANCH = r"^(?!(?:origin/)?(?:main|master|develop|development|dev|trunk|staging|release)$)"
#: Ticket ids: "PAY-1432", "#812", "ENG-77".
TICKET_ID = r"^(?:#\d{1,7}|[A-Z][A-Z0-9]{0,9}-\d{1,7})$"


class CodingSession(DomainState):
    """What a coding session must not forget."""

    schema_name = "coding"

    task: Pinned | None = pin("note", subtype="requested", role="user", pick="first",
                              required=True, missing="not stated",
                              description="what the user asked the agent to do")
    ticket: Pinned | None = pin("identifier", pattern=TICKET_ID,
                                not_label=("pull request", "pr", "mr", "merge request",
                                           "commit", "run", "build", "job", "line"),
                                description="the issue or ticket id the work is for")
    branch: Pinned | None = pin("identifier", subtype="branch", pattern=WORK_BRANCH,
                                description="the git branch worked on")
    files_touched: list[Pinned] = pin("identifier", subtype="path", label="edited", pick="all",
                                      description="files the agent edited or created")
    test_command: Pinned | None = pin("identifier", subtype="command", pattern=TEST_RUNNER,
                                      description="the command that runs the tests")
    failed_approaches: list[Pinned] = pin("note", subtype="tried", pick="all",
                                          description="approaches tried that did not work")
    root_cause: Pinned | None = pin("note", subtype="found", label="root cause", pick="first",
                                    description="the stated cause of the bug")
    reviewer: Pinned | None = pin("identifier", label="reviewer",
                                  description="who is to review the change")
    constraints: list[Pinned] = pin("constraint", pick="all",
                                    description="rules the user set for the work")
