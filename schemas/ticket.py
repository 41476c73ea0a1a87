"""A support ticket: what is broken, how urgent, what was tried, what was promised."""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin

#: What a follow-up does: someone will contact the customer, or come back with news
#: ("I'll call you at 3pm", "Dana will phone you", "we'll email you the report"): the
#: act is the verb of the "will", not a word anywhere ("If the update comes out, ...").
FOLLOW_UP = (r"(?:'ll|’ll|\bwill|\bshall)\s+(?:(?:also|then|personally|definitely|"
             r"now|first|just)\s+)?(?:call|ring|phone|e-?mail|text|sms|message|contact|"
             r"reach\s+out|(?:be|get)\s+in\s+touch|get\s+back|follow[\s-]up|update|"
             r"let\s+you\s+know|notify|escalat\w*|send|post|visit|confirm|come\s+back)\b|"
             # the customer's side of it: "you'll get an SMS with the time", "you'll hear
             # from us"
             r"\byou(?:'ll|’ll|\s+will)\s+(?:get|receive|hear)\s+(?:from\b|(?:an?|the|our)\s+"
             r"(?:\w+\s+)?(?:call|e-?mail|sms|text|message|update|letter|notification)\b)")
#: A follow-up that names its time is the one to keep ("I'll email you by 4pm today",
#: "as soon as the team replies"), over one that only restates the act.
WITH_TIME = (r"\b(?:at|by|before|after|around|from|within|in|until)\s+(?:about\s+)?\d|"
             r"\d(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\b(?:today|tomorrow|tonight|"
             r"this\s+(?:morning|afternoon|evening|week)|(?:on\s+)?(?:monday|tuesday|wednesday|"
             r"thursday|friday|saturday|sunday)|as\s+soon\s+as|once|when)\b")


#: A deadline stated as a service target ("a resolution target of 8 business hours")
#: outranks the time a promise names ("I'll email you by 4pm").
SERVICE_TARGET = r"\b(?:target|sla|response\s+time|resolution\s+time)\b"


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
        "datetime", subtype="deadline", role=("assistant", "tool"), prefer=SERVICE_TARGET,
        description="when the support side must respond or resolve by")
    steps_tried: list[Pinned] = pin("note", subtype="tried", pick="all",
                                    description="troubleshooting steps already tried")
    promised_follow_up: Pinned | None = pin(
        "commitment", subtype="promised", role="assistant", pattern=FOLLOW_UP,
        prefer=WITH_TIME,
        description="the agent's promised follow-up: a callback, email, update, escalation")
    open_questions: list[Pinned] = pin("question", status=("open", "deferred"), pick="all",
                                       description="questions still unanswered")
