"""The replay viewer's HTML: playing cards, the hands, the trick, the talon, a step's notes and findings,
and the deal's header.  No images, no scripts, every text escaped.

Suit cards show their rank and suit symbol (♥ ♦ red, ♠ ♣ black), taroks their
Roman numeral (I … XXI) and the Škis its name.  Everything that comes from a
record (player names, card codes, finding sentences) goes through
``html.escape``: a record is data, never markup (docs/architecture.md, "Reliability and security").
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from dashboards.labels import contract_label, deal_status
from dashboards.replay_model import DealReplay, PlayView, SeatView, Step
from tarock.cards import ROMAN_NUMERALS, SUIT_SYMBOLS, card_text, cards_text

_RED = frozenset("HD")
_RANK_NAMES = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack"}
_SUIT_NAMES = {"H": "Hearts", "D": "Diamonds", "S": "Spades", "C": "Clubs"}
_TAROK_NAMES = {1: "Pagat (I)", 21: "Mond (XXI)", 22: "Škis"}

CSS = """
<style>
.tk-wrap{font-family:"DejaVu Sans",system-ui,sans-serif;color:#1f2328}
.tk-seat{display:flex;align-items:center;gap:.8rem;padding:.45rem .6rem;margin:.3rem 0;border-radius:.6rem;
 background:#f4f7f4;border:1px solid #dde5dd}
.tk-seat.tk-turn{border-color:#2e7d32;box-shadow:0 0 0 2px #2e7d3233}
.tk-who{width:7rem;flex:none;font-weight:600;line-height:1.3;overflow-wrap:anywhere}
.tk-tags{display:block;font-weight:400;font-size:.75rem;color:#57606a}
.tk-tag{display:inline-block;padding:0 .35rem;margin:.1rem .2rem 0 0;border-radius:.5rem;background:#e3e9f3}
.tk-tag.tk-decl{background:#fde7c3}.tk-tag.tk-part{background:#e6f0d8}
.tk-tag.tk-lead{background:#d7e7fb}.tk-tag.tk-win{background:#ffe08a}
.tk-hand{display:flex;flex-wrap:wrap;gap:.25rem}
.tk-card{position:relative;display:inline-flex;flex-direction:column;justify-content:space-between;
 width:2.6rem;height:3.7rem;padding:.15rem .2rem;box-sizing:border-box;border-radius:.35rem;background:#fff;
 border:1px solid #9aa5b1;box-shadow:0 1px 2px #0002;font-weight:700;line-height:1}
.tk-card .tk-r{font-size:.95rem}.tk-card .tk-s{font-size:1.35rem;align-self:flex-end}
.tk-card.tk-red{color:#c62828}.tk-card.tk-black{color:#1f2328}
.tk-card.tk-tarok{background:#fbf6e9;color:#5d4037;justify-content:center;align-items:center;text-align:center}
.tk-card.tk-tarok .tk-r{font-size:.85rem}.tk-card.tk-tarok .tk-s{font-size:.6rem;align-self:center;
 font-weight:400;color:#8d6e63;margin-top:.2rem}
.tk-card.tk-gone{opacity:.25;filter:grayscale(1)}
.tk-card.tk-mark{border:2px solid #1565c0;box-shadow:0 0 0 2px #1565c033}
.tk-card.tk-win{border:2px solid #f9a825;box-shadow:0 0 0 3px #f9a82566}
.tk-card.tk-bad{border:2px solid #c62828;box-shadow:0 0 0 3px #c6282844}
.tk-trick{display:flex;gap:.9rem;flex-wrap:wrap;padding:.7rem;border-radius:.6rem;background:#1b5e20;align-items:flex-start;
 color:#fff;min-height:5.2rem}
.tk-play{display:flex;flex-direction:column;align-items:center;gap:.2rem;font-size:.8rem}
.tk-play .tk-card{width:3rem;height:4.3rem}
.tk-play .tk-pn{font-weight:600}.tk-play .tk-note{font-size:.7rem;color:#ffe08a}
.tk-play .tk-note.tk-badnote{color:#ffcdd2}
.tk-talon{display:flex;gap:.6rem;flex-wrap:wrap}
.tk-group{display:flex;gap:.2rem;padding:.2rem;border-radius:.4rem;border:1px dashed #9aa5b1}
.tk-group.tk-taken{border:2px solid #1565c0;background:#e3f2fd}
.tk-empty{color:#57606a;font-style:italic}
.tk-notes{font-family:"DejaVu Sans",system-ui,sans-serif;line-height:1.5}
.tk-notes ul{margin:.2rem 0 .6rem 1.1rem;padding:0}
.tk-finding{margin:.4rem 0;padding:.5rem .7rem;border-radius:.5rem;background:#fdecea;border-left:4px solid #c62828}
.tk-finding.tk-warning,.tk-finding.tk-audit,.tk-finding.tk-misplay{background:#fff8e1;border-left-color:#f9a825}
.tk-code{font-family:monospace;font-weight:700;margin-right:.4rem}
.tk-title{font-size:1.25rem;font-weight:600}.tk-facts{color:#57606a;font-size:.9rem}
</style>
"""
"""The stylesheet, sent with every block (each ``st.html`` block is its own fragment of the page)."""
STATUS_ICONS = {"ok": "✓", "renons": "⚠", "error": "✖"}


def card_label(code: str) -> tuple[str, str]:
    """(big text, small text) of a card: ("XXI", "tarok"), ("Škis", "tarok"), ("K", "♥"); together the
    ``card_text`` every table and text output writes."""
    if code.startswith("T"):
        return card_text(code), "tarok"
    return code[1:], SUIT_SYMBOLS[code[0]]


def card_name(code: str) -> str:
    """A card's full name for its tooltip: "Mond (XXI)", "Knight of Hearts"."""
    if code.startswith("T"):
        n = int(code[1:])
        return _TAROK_NAMES.get(n) or f"Tarok {ROMAN_NUMERALS[n - 1]}"
    rank = code[1:]
    return f"{_RANK_NAMES.get(rank, rank)} of {_SUIT_NAMES[code[0]]}"


def card_html(code: str, *, gone: bool = False, marked: bool = False, wins: bool = False, bad: bool = False) -> str:
    """One card as a small HTML block; the flags grey it out or ring it."""
    big, small = card_label(code)
    kind = "tk-tarok" if code.startswith("T") else ("tk-red" if code[0] in _RED else "tk-black")
    classes = ["tk-card", kind]
    classes += [name for flag, name in ((gone, "tk-gone"), (marked, "tk-mark"), (wins, "tk-win"), (bad, "tk-bad"))
                if flag]
    return (f'<span class="{" ".join(classes)}" title="{escape(card_name(code))} ({escape(code)})">'
            f'<span class="tk-r">{escape(big)}</span><span class="tk-s">{escape(small)}</span></span>')


def _tags(seat: SeatView, step: Step) -> str:
    tags = []
    if seat.role == "declarer":
        tags.append('<span class="tk-tag tk-decl">declarer</span>')
    elif seat.role == "partner":
        tags.append('<span class="tk-tag tk-part">partner</span>')
    if step.leader == seat.name:
        tags.append('<span class="tk-tag tk-lead">leads</span>')
    if step.winner == seat.name:
        tags.append('<span class="tk-tag tk-win">wins ★</span>')
    return f'<span class="tk-tags">{"".join(tags)}</span>' if tags else ""


def seat_html(seat: SeatView, step: Step) -> str:
    """One player's row: name, role and trick marks, then the hand (played cards greyed out)."""
    cards = "".join(card_html(c, gone=c in seat.gone, marked=c in seat.marked) for c in seat.cards)
    turn = " tk-turn" if step.leader == seat.name else ""
    hand = cards or '<span class="tk-empty">no cards known</span>'
    return (f'<div class="tk-seat{turn}"><div class="tk-who">{escape(seat.name)}{_tags(seat, step)}</div>'
            f'<div class="tk-hand">{hand}</div></div>')


def hands_html(step: Step) -> str:
    """Every player's hand at this step."""
    return CSS + '<div class="tk-wrap">' + "".join(seat_html(s, step) for s in step.seats) + "</div>"


def _play_html(play: PlayView) -> str:
    notes = []
    if play.leads:
        notes.append('<span class="tk-note">led</span>')
    if play.wins:
        notes.append('<span class="tk-note">wins ★</span>')
    if play.faulty:
        notes.append('<span class="tk-note tk-badnote">renons ⚠</span>')
    return (f'<div class="tk-play">{card_html(play.card, wins=play.wins, bad=play.faulty)}'
            f'<span class="tk-pn">{escape(play.player)}</span>{"".join(notes)}</div>')


def trick_html(step: Step) -> str:
    """The trick on the table, cards in play order, leader and winner marked."""
    if not step.trick:
        return CSS + '<div class="tk-wrap"><div class="tk-trick"><span>No trick on the table.</span></div></div>'
    return CSS + '<div class="tk-wrap"><div class="tk-trick">' + "".join(_play_html(p) for p in step.trick) + \
        "</div></div>"


def talon_html(step: Step) -> str:
    """The talon in its dealt groups; the group the declarer took is ringed."""
    if not step.talon:
        return ""
    size = step.talon_group or len(step.talon)
    groups = []
    for i in range(0, len(step.talon), size):
        group = step.talon[i:i + size]
        taken = " tk-taken" if step.talon_taken and set(group) <= step.talon_taken else ""
        groups.append(f'<div class="tk-group{taken}">' + "".join(card_html(c) for c in group) + "</div>")
    return CSS + '<div class="tk-wrap"><div class="tk-talon">' + "".join(groups) + "</div></div>"


def stash_html(step: Step) -> str:
    """The cards laid away, drawn from the Stash step on (they count for the declarer at the end)."""
    if not step.stash:
        return ""
    cards = "".join(card_html(c, marked=True) for c in step.stash)
    return (CSS + '<div class="tk-wrap"><div class="tk-seat"><div class="tk-who">Laid away</div>'
            f'<div class="tk-hand">{cards}</div></div></div>')


def notes_html(step: Step) -> str:
    """The step's sentences and its findings (code and sentence, coloured by severity)."""
    lines = "".join(f"<li>{escape(cards_text(line))}</li>" for line in step.lines)
    found = "".join(
        f'<div class="tk-finding tk-{escape(f.severity)}"><span class="tk-code">{escape(f.code)}</span>'
        f"{escape(cards_text(f.message))}</div>"
        for f in step.findings
    )
    return f'{CSS}<div class="tk-notes"><ul>{lines}</ul>{found}</div>'


def deal_header_html(rp: DealReplay, deal: Mapping[str, object]) -> str:
    """The contract, who played it, and where the stored deal comes from (its ``deals`` row)."""
    who = f"declarer <b>{escape(rp.declarer)}</b>" if rp.declarer else "no declarer"
    partner = f", partner <b>{escape(rp.partner)}</b>" if rp.partner else ""
    icon, status = deal_status(rp.status, (f.code for step in rp.steps for f in step.findings))
    facts = [f"{icon} {status}", f"{len(rp.players)} players", f"deal {rp.deal_id}"]
    if deal.get("session"):
        seq = deal.get("seq")
        facts.append(f"session {deal['session']}" + ("" if seq is None else f" #{seq}"))
    if deal.get("date"):
        facts.append(str(deal["date"]))
    facts.append(f"from {deal.get('source_file')}:{deal.get('source_line')}")
    return (f'{CSS}<div class="tk-notes"><div class="tk-title">{escape(contract_label(rp.contract))} — {who}'
            f'{partner}</div><div class="tk-facts">{escape(" · ".join(facts))}</div></div>')
