"""A support ticket: what is broken, how urgent, what was tried, what was promised."""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin

#: What a follow-up does: contact the customer, or come back with news.
FOLLOW_UP = (r"\b(?:call|ring|phone|e-?mail|text|sms|message|contact|reach\s+out|in\s+touch|"
             r"get\s+back|follow[\s-]up|update|let\s+you\s+know|notify|hear|escalat\w*|"
             r"send|post|visit|confirm)")


class SupportTicket(DomainState):
    """A support case as the conversation states it."""

    schema_name = "ticket"

    ticket_id: Pinned | None = pin(
        "identifier", label=("ticket", "case", "incident", "request", "reference", "ref"),
        required=True, missing="not given",
        description="the ticket, case or incident number of this issue")
    product: Pinned | None = pin("identifier", subtype="product", pick="first",
                                 description="the product, device, plan or service at issue")
    severity: Pinned | None = pin("identifier", subtype="severity",
                                  description="the stated severity or priority level")
    sla_deadline: Pinned | None = pin(
        "datetime", subtype="deadline", role=("assistant", "tool"),
        description="when the support side must respond or resolve by")
    steps_tried: list[Pinned] = pin("commitment", subtype="tried", pick="all",
                                    description="troubleshooting steps already tried")
    promised_follow_up: Pinned | None = pin(
        "commitment", subtype="promised", role="assistant", pattern=FOLLOW_UP,
        description="the agent's promised follow-up: a callback, email, update, escalation")
    open_questions: list[Pinned] = pin("question", status=("open", "deferred"), pick="all",
                                       description="questions still unanswered")
