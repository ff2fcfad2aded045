"""How winnable each game is, as the solver learns it: every search the site runs on a fresh
deal (the winnable-deal top-up, "can this still be won?" asked at the deal, ``manage.py
winnability``) records its answer as a ``DealSearch``, and the pages show per game "of N deals
tried at T s, W won, L proved lost".

- ``search_deal`` solves a deal from its first position and records the answer (the one call
  a search of a fresh deal needs); ``record_search`` records an answer found elsewhere, and
  ``record_if_fresh`` one for any position, if it is a deal's first (a search asked at ply 0);
- ``search_deals`` does it for a run of deals and gives the wins in the format of the kept
  solutions (``{"deal", "moves"}``), for the top-up;
- the figures are read back by ``games.selectors.deals`` (``winnability``, ``winnabilities``,
  ``lost_deals``), one line per time budget.
"""

from ..models import DealSearch
from ..rules import VARIANTS, Position, first_position, is_deal_number
from ..rules.solver import SolveResult, solve

#: Answers a later search may replace, by how little they say.
_RANK = {DealSearch.Status.UNKNOWN: 0, DealSearch.Status.WON: 1, DealSearch.Status.LOST: 1}


def record_search(variant: str, deal: int | str, seconds: float, result: SolveResult) -> None:
    """Keep the solver's answer for a fresh deal of ``variant`` searched ``seconds``: a decided
    answer replaces "unknown", never the other way round."""
    if variant not in VARIANTS:
        raise KeyError(variant)
    status = DealSearch.Status(result.status)
    row, created = DealSearch.objects.get_or_create(
        variant=variant,
        deal=str(deal),
        seconds=float(seconds),
        defaults={"status": status, "nodes": result.nodes},
    )
    if not created and _RANK[status] > _RANK[DealSearch.Status(row.status)]:
        DealSearch.objects.filter(pk=row.pk).update(status=status, nodes=result.nodes)


def record_if_fresh(
    variant: str,
    deal: int | str,
    position: Position,
    seconds: float,
    result: SolveResult,
    *,
    as_dealt: bool = False,
) -> bool:
    """Keep the answer of a search of ``position`` (say "can this still be won?") if that is
    deal ``deal``'s first position, untouched, or (``as_dealt``: the caller knows) that
    position after only the cards the deal itself sent home, which lose no win; whether it
    was kept."""
    number = int(deal) if str(deal).isascii() and str(deal).isdigit() else None
    if variant not in VARIANTS or not is_deal_number(number):
        return False
    if not as_dealt and position.key() != first_position(VARIANTS[variant], number).key():
        return False
    record_search(variant, number, seconds, result)
    return True


def search_deal(variant: str, deal: int, seconds: float) -> SolveResult:
    """Solve deal ``deal`` of ``variant`` from its first position, ``seconds`` at most, and
    record the answer. The result is the solver's (a win's moves replay to a win)."""
    result = solve(first_position(VARIANTS[variant], deal), seconds=seconds)
    record_search(variant, deal, seconds, result)
    return result


def search_deals(variant: str, start: int, count: int, seconds: float) -> list[dict]:
    """Search deals ``start``..``start + count - 1``, recording each answer; the wins as
    ``{"deal", "moves"}``."""
    found = []
    for number in range(start, start + count):
        result = search_deal(variant, number, seconds)
        if result.status == DealSearch.Status.WON:
            found.append({"deal": number, "moves": [str(m) for m in result.moves]})
    return found
