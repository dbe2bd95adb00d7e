#!/usr/bin/env python3
"""rule: a simple rule-based ratrace-bot/1 bot for both games.

Standard library only. Usage: python3 rule_bot.py
The protocol: docs/bot-protocol.md. The views are the engines' serde views
(crates/dalmuti/src/view.rs, crates/bigcheese/src/view.rs).

Rules (short on purpose: this is an example, not a strong player):
- Dalmuti: shed the most cards, worst rank (highest number) first, Jesters
  only when nothing else will do; when following a trick with a big hand, keep 1s, 2s, 3s and
  Jesters and pass instead; give the worst cards in taxes; a peon holding
  both Jesters declares the revolution; never trade at the market.
- Big Cheese: bid the cheapest bid while it is worth it for the card and
  costs at most half the free chips; veto a big card someone else is
  winning; re-roll a poor roll when a Big Cheese allows it.

Whatever happens, the answer is one of `legal`: a view this bot cannot
read makes it fall back to the first legal action. Logs go to stderr.
"""
import json
import sys


def log(*args):
    print("rule_bot:", *args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- Dalmuti

JESTER = 13  # a Jester alone counts as rank 13 (D6); lower ranks are better


def parse_play(text):
    """`3x7`, `2x7+J`, `1x7+2J`, `7`, `J`, `2xJ` -> (size, rank, jesters)."""
    naturals, rank, jesters = 0, JESTER, 0
    for part in text.split("+"):
        count, _, card = part.rpartition("x")
        if card.endswith("J"):
            jesters += int(card[:-1] or 1) * int(count or 1)
        else:
            naturals, rank = int(count or 1), int(card)
    return naturals + jesters, rank, jesters


def card_badness(card):
    """How much we want to get rid of a card: 12 most, a Jester (wild) least."""
    return 0 if card == "J" else int(card)


def dalmuti(view, legal):
    plays = [(parse_play(a[5:]), a) for a in legal if a.startswith("play ")]
    gives = [a for a in legal if a.startswith("give ")]
    if gives:  # taxes or the market: the worst cards go
        return max(gives, key=lambda a: sum(card_badness(c) for c in a.split()[1:]))
    if "revolution" in legal:  # only a peon gains from it (no taxes to pay)
        me = int(view["seat"][1:]) - 1
        role = view["public"]["roles"][me]
        return "revolution" if role.endswith("peon") else "no-revolution"
    if "no-market" in legal:
        return "no-market"
    if plays:
        hand_size = len([c for c in view["hand"].split() if c not in ("|", "empty")])
        following = view["public"]["trick"] is not None
        if following and "pass" in legal and hand_size > 6:
            # keep the best cards for later: pass rather than spend them
            cheap = [p for p in plays if p[0][1] > 3 and p[0][2] == 0]
            if not cheap:
                return "pass"
            plays = cheap
        # the fewest Jesters, then the most cards, then the worst rank
        return max(plays, key=lambda p: (-p[0][2], p[0][0], p[0][1]))[1]
    return legal[0]  # pass, seat-new, ...


# ------------------------------------------------------------ Big Cheese

# What a card is worth to us, in chips (a rough guess; specials help too).
WORTH = {"2": 1, "4": 2, "6": 2, "8": 3, "10": 4, "12": 4, "20": 6, "V": 2, "BC": 2}


def bigcheese(view, legal):
    public = view["public"]
    me = view["me"]
    mine = next(p for p in public["seats"] if p["seat"] == me)
    roll = public.get("roll")
    if roll is not None and "keep" in legal:
        card_value = int(roll["card"]) if roll["card"].isdigit() else 0
        rerolls = [a for a in legal if a.startswith("reroll")]
        if rerolls and roll["payout"] < card_value / 2:
            low = str(min(roll["dice"])) if roll["dice"] else ""
            # `reroll` (one die) or `reroll N` with our lowest die
            for a in rerolls:
                if a == "reroll" or a == "reroll " + low:
                    return a
        return "keep"
    auction = public.get("auction")
    if auction is not None:
        card = auction["card"]
        if ("veto" in legal and WORTH.get(card, 0) >= 4
                and auction["bidder"] not in (None, me)):
            return "veto"
        bids = sorted(int(a[4:]) for a in legal if a.startswith("bid "))
        if bids and bids[0] <= min(WORTH.get(card, 1), max(1, mine["free"] // 2)):
            return "bid %d" % bids[0]
    return "pass" if "pass" in legal else legal[0]


# ------------------------------------------------------------------- main

def decide(game, view, legal):
    try:
        choice = (dalmuti if game == "dalmuti" else bigcheese)(view, legal)
        if choice in legal:
            return choice
        log("rule picked", repr(choice), "which is not legal")
    except Exception as e:  # a view we do not understand: never crash
        log("could not read the view:", repr(e))
    return legal[0]


def main():
    game = None
    for line in sys.stdin:
        try:
            msg = json.loads(line)
            kind = msg.get("type")
        except (ValueError, AttributeError):
            log("ignored a line that is not a JSON object")
            continue
        if kind == "start":
            game = msg.get("game")
            answer = {"type": "ready", "name": "rule", "protocol": 1}
        elif kind == "act" and msg.get("legal"):
            answer = {"type": "action", "id": msg.get("id"),
                      "action": decide(game, msg.get("view"), msg["legal"])}
        elif kind == "quit":
            break
        else:  # event, end, anything newer
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
