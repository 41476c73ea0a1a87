"""The refund a support conversation negotiates."""

from __future__ import annotations

from schemas.base import DomainState, Pinned, pin


class Refund(DomainState):
    """A return and its refund: what was bought, what is agreed, what is still open."""

    schema_name = "refund"

    order_id: Pinned | None = pin("identifier", subtype=("order", "reference"), label="order",
                                  required=True, missing="not given")
    purchase_price: Pinned | None = pin("amount", subtype="money",
                                        label=("purchase price", "price"), pick="first")
    deductions: list[Pinned] = pin("amount", label="deduction", pick="all")
    refund_amount: Pinned | None = pin("commitment", subtype="agreed", label="refund",
                                       required=True, missing="not yet agreed")
    fees_waived: list[Pinned] = pin("commitment", subtype="granted",
                                    label=("fee", "charge", "excess"), pick="all")
    shipping_covered: Pinned | None = pin("commitment", subtype=("granted", "promised",
                                                                 "agreed"),
                                          label=("shipping", "postage", "return label"))
    outstanding_questions: list[Pinned] = pin("question", status=("open", "deferred"),
                                              pick="all")
    collection_booking: Pinned | None = pin("identifier", subtype=("booking", "reference"),
                                            label=("booking", "collection"))
