//! Taxes (D8) and the market variants (D14): who gives what to whom, the
//! transfers told to the seats that may know them, then play begins.

use super::*;

impl Dalmuti {
    /// The number of cards in the greater (`true`) or lesser exchange: 2 or
    /// 1, fewer only in hand-made scenario positions with tiny hands.
    pub(crate) fn tax_size(&self, greater: bool) -> usize {
        let n = self.players as usize;
        let (top, bottom, k) = if greater {
            (0, n - 1, 2)
        } else {
            (1, n - 2, 1)
        };
        k.min(self.left[self.at(top) as usize] as usize)
            .min(self.left[self.at(bottom) as usize] as usize)
    }

    pub(crate) fn begin_taxes_or_play(&mut self, taxes: bool) {
        self.taxes = taxes;
        if !taxes {
            say!(self, Event::NoTaxes);
            self.begin_play();
            return;
        }
        if self.tax_size(true) > 0 {
            self.phase = Phase::GreaterTax;
            self.turn = self.at(0);
        } else {
            self.after_greater_choice();
        }
    }

    pub(super) fn after_greater_choice(&mut self) {
        if self.players >= 4 && self.tax_size(false) > 0 {
            self.phase = Phase::LesserTax;
            self.turn = self.at(1);
        } else {
            self.resolve_taxes();
        }
    }

    pub(super) fn record(&mut self, from: u8, to: u8, cards: Gift, kind: TransferKind) {
        self.transfers[self.n_transfers as usize] = Transfer {
            from: Seat::new(from as usize),
            to: Seat::new(to as usize),
            cards,
            kind,
        };
        self.n_transfers += 1;
    }

    /// The `k` best cards of a hand (lowest rank, Jesters worst: D8).
    pub(super) fn best_cards(hand: Hand, k: usize) -> Option<Gift> {
        let mut h = hand;
        let a = h.best()?;
        if k == 1 {
            return Some(Gift::one(a));
        }
        h.remove(a, 1);
        Some(Gift::two(a, h.best()?))
    }

    pub(super) fn move_cards(&mut self, from: u8, to: u8, g: Gift) {
        for c in g.cards() {
            self.hands[from as usize].remove(c, 1);
            self.hands[to as usize].add(c, 1);
        }
        let k = g.len() as u8;
        self.left[from as usize] -= k;
        self.left[to as usize] += k;
    }

    /// D8: all tax cards move at once, chosen from pre-exchange hands.
    pub(super) fn resolve_taxes(&mut self) {
        let n = self.players as usize;
        let mut moves: [(u8, u8, Gift); 4] = [(0, 0, Gift::one(Card::JESTER)); 4];
        let mut k = 0;
        let exchanges = [(0, n - 1, true), (1, n - 2, false)];
        let m = if n >= 4 { 2 } else { 1 };
        for &(top, bottom, greater) in &exchanges[..m] {
            let size = self.tax_size(greater);
            if size == 0 {
                continue;
            }
            let (d, p) = (self.at(top), self.at(bottom));
            let pay = Self::best_cards(self.hands[p as usize], size).expect("tax size checked");
            let back = if greater {
                self.greater_gift.take()
            } else {
                self.lesser_gift.take()
            }
            .expect("tax choice made");
            moves[k] = (p, d, pay);
            moves[k + 1] = (d, p, back);
            k += 2;
        }
        for &(from, to, g) in &moves[..k] {
            self.move_cards(from, to, g);
            self.record(from, to, g, TransferKind::Tax);
        }
        if self.logging {
            for &(from, to, g) in &moves[..k] {
                let (f, t) = (seat(from), seat(to));
                let count = g.len() as u8;
                if self.pos[from as usize] > self.pos[to as usize] {
                    say!(
                        self,
                        Event::TaxPaid {
                            from: f,
                            to: t,
                            count,
                        }
                    );
                } else {
                    say!(
                        self,
                        Event::TaxReturned {
                            from: f,
                            to: t,
                            count,
                        }
                    );
                }
                self.tell_transfer(from, to, g);
            }
        }
        let n_merchants = n.saturating_sub(4);
        if (self.options.market || self.options.black_market) && n_merchants >= 2 {
            self.phase = Phase::Market;
            self.turn = self.at(2);
        } else {
            self.begin_play();
        }
    }

    pub(crate) fn begin_play(&mut self) {
        self.phase = Phase::Play;
        self.trick = None;
        self.passed = 0;
        self.turn = self.at(0);
        say!(
            self,
            Event::Leads {
                seat: seat(self.turn),
            }
        );
    }

    /// Says every seat's role for the hand, in table order (D4).
    pub(super) fn say_roles(&mut self) {
        let n = self.players as usize;
        for p in 0..n {
            let s = self.order[p];
            say!(
                self,
                Event::Role {
                    seat: seat(s),
                    role: Role::of(p, n),
                }
            );
        }
    }

    /// A Dalmuti's tax choice (D8): the cards only to them, the fact to
    /// everyone.
    pub(super) fn tell_choice(&mut self, s: u8, cards: Gift, role: Role) {
        tell!(
            self,
            s,
            Event::WillGive {
                seat: seat(s),
                cards,
                role,
            }
        );
        say!(self, Event::TaxChosen { seat: seat(s) });
    }

    /// Tells the giver and the receiver of cards what went across.
    pub(super) fn tell_transfer(&mut self, from: u8, to: u8, cards: Gift) {
        let (f, t) = (seat(from), seat(to));
        tell!(
            self,
            from,
            Event::YouGive {
                from: f,
                to: t,
                cards,
            }
        );
        tell!(
            self,
            to,
            Event::YouGet {
                from: f,
                to: t,
                cards,
            }
        );
    }

    /// Whether `s` is a Merchant other than the first one (D14 market).
    pub(crate) fn is_market_partner(&self, s: Seat) -> bool {
        let n = self.players as usize;
        if s.index() >= n {
            return false;
        }
        let p = self.pos[s.index()] as usize;
        n >= 6 && p >= 3 && p + 3 <= n
    }

    /// `give`: seat `s`'s tax choice (D8) or the market's card back (D14).
    pub(super) fn give(&mut self, s: u8, g: Gift) {
        match self.phase {
            Phase::GreaterTax => {
                self.tell_choice(s, g, Role::GreaterPeon);
                self.greater_gift = Some(g);
                self.after_greater_choice();
            }
            Phase::LesserTax => {
                self.tell_choice(s, g, Role::LesserPeon);
                self.lesser_gift = Some(g);
                self.resolve_taxes();
            }
            Phase::MarketReturn => {
                let first = self.at(2);
                self.move_cards(s, first, g);
                self.record(s, first, g, TransferKind::Market);
                say!(
                    self,
                    Event::MarketReturn {
                        from: seat(s),
                        to: seat(first),
                    }
                );
                self.tell_transfer(s, first, g);
                self.begin_play();
            }
            Phase::SeatNew | Phase::Revolution | Phase::Market | Phase::Play | Phase::Over => {
                panic!("give in phase {}", self.phase)
            }
        }
    }

    /// `black-market`: seat `s` and `partner` each draw a card at random
    /// from the other's hand (D14).
    pub(super) fn black_market(&mut self, s: u8, partner: Seat) {
        let t = partner.index() as u8;
        let mine = self.hands[s as usize];
        let theirs = self.hands[t as usize];
        let a = mine.nth(below(&mut self.rng, mine.len() as u32) as usize);
        let b = theirs.nth(below(&mut self.rng, theirs.len() as u32) as usize);
        self.move_cards(s, t, Gift::one(a));
        self.move_cards(t, s, Gift::one(b));
        self.record(s, t, Gift::one(a), TransferKind::Market);
        self.record(t, s, Gift::one(b), TransferKind::Market);
        self.market_with = Some(t);
        say!(
            self,
            Event::BlackMarket {
                seat: seat(s),
                partner,
            }
        );
        tell!(
            self,
            s,
            Event::BlackMarketDraw {
                seat: seat(s),
                other: partner,
                lost: a,
                got: b,
            }
        );
        tell!(
            self,
            t,
            Event::BlackMarketDraw {
                seat: partner,
                other: seat(s),
                lost: b,
                got: a,
            }
        );
        self.begin_play();
    }
}
