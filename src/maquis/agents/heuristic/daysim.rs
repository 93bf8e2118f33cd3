//! Sampling the rest of today's patrols: the remaining draws in a random order consistent with
//! what the player has seen, placed by the engine's P3 around the new worker and stand-ins for the
//! workers still to place, then the routes home judged by the engine's F7.

use super::*;

pub(super) struct DaySim {
    pub(super) adj: [LocSet; 19],
    pub(super) homes: LocSet,
    pub(super) workers: LocSet,
    pub(super) patrols: LocSet,
    pub(super) fakes: LocSet,
    pub(super) remaining: usize,
    /// Cards left in the deck (a set: their order is hidden) and whether the first is known.
    pub(super) deck: [u8; NUM_CARDS],
    pub(super) deck_len: usize,
    pub(super) known_top: bool,
}

pub(super) struct SimResult {
    pub(super) home_new: bool,
    pub(super) arrested_new: bool,
    pub(super) others_lost: u32,
    pub(super) fake_spent: bool,
    pub(super) virtual_value: f64,
    pub(super) virtual_lost: u32,
}

impl DaySim {
    pub(super) fn new(s: &State) -> DaySim {
        let d = s.deck.deck();
        let mut deck = [0u8; NUM_CARDS];
        deck[..d.len()].copy_from_slice(d);
        DaySim {
            adj: routes::open_adjacency(s),
            homes: s.safe_houses(),
            workers: s.locs_with(Pawn::Worker),
            patrols: s.patrol_set(),
            fakes: s.marks.fake_ids,
            remaining: s.patrols_today.saturating_sub(s.patrols_drawn) as usize,
            deck,
            deck_len: d.len(),
            // M-infiltration: the top card shown at the start of the day, if not yet drawn.
            known_top: s.today.peek.is_some() && d.first() == s.today.peek.as_ref(),
        }
    }

    /// A possible order of the next cards: the deck's cards shuffled (known top kept), then a
    /// reshuffle of all ten.
    /// Sample `index` of a stratified set: the first unknown card cycles through the deck.
    pub(super) fn sample_sequence(&self, rng: &mut Rng64, index: usize) -> [u8; 16] {
        let mut seq = [0u8; 16];
        let n = self.deck_len.min(16);
        seq[..n].copy_from_slice(&self.deck[..n]);
        let mut start = usize::from(self.known_top);
        if n > start {
            seq.swap(start, start + (index % (n - start)));
            start += 1;
        }
        for i in (start + 1..n).rev() {
            let j = start + rng.below(i - start + 1);
            seq.swap(i, j);
        }
        let mut all: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        for i in (1..10).rev() {
            let j = rng.below(i + 1);
            all.swap(i, j);
        }
        let rest = (16 - n).min(10);
        seq[n..n + rest].copy_from_slice(&all[..rest]);
        seq
    }

    /// F7, by the engine's own route search over today's open roads: 0 = clear, 1 = with the
    /// Fake ID, 2 = none.
    #[inline]
    pub(super) fn route(&self, loc: usize, patrols: LocSet, fake: bool) -> u8 {
        let nb = |set| routes::neighbours(&self.adj, set);
        match routes::route_over(nb, patrols, self.homes, 1 << loc, fake) {
            Route::Clear => 0,
            Route::WithFakeId => 1,
            Route::None => 2,
        }
    }

    /// Places the new worker on `loc`, then today's remaining patrols alternating with the
    /// stand-ins for the workers still to place (`virt`: location, value, safe), then judges routes.
    pub(super) fn run(&self, loc: Location, fake: bool, seq: &[u8; 16], virt: &[(Location, f64, bool)]) -> SimResult {
        let nb = bit(loc);
        let mut workers = self.workers | nb;
        let mut patrols = self.patrols;
        let fakes = if fake { self.fakes | nb } else { self.fakes };
        let mut arrested: LocSet = 0;
        let mut virtual_set: LocSet = 0;
        let mut drawn = 0;
        // P3, by the engine's own rule, on the simulated sets.
        let place = |card: u8, workers: &mut LocSet, patrols: &mut LocSet, arrested: &mut LocSet| {
            let occ = *workers | *patrols;
            match landing(card, |l| occ & bit(l) == 0, |l| *workers & bit(l) != 0) {
                Landing::On(l) => *patrols |= bit(l),
                Landing::Arrest(l) => {
                    *workers &= !bit(l);
                    *arrested |= bit(l);
                    *patrols |= bit(l);
                }
                Landing::Nowhere => {}
            }
        };
        for &(v, _, _) in virt {
            if drawn < self.remaining {
                place(seq[drawn], &mut workers, &mut patrols, &mut arrested);
                drawn += 1;
            }
            if (workers | patrols) & bit(v) == 0 {
                workers |= bit(v);
                virtual_set |= bit(v);
            }
        }
        while drawn < self.remaining {
            place(seq[drawn], &mut workers, &mut patrols, &mut arrested);
            drawn += 1;
        }
        let mut res = SimResult {
            home_new: false,
            arrested_new: arrested & nb != 0,
            others_lost: (arrested & !nb & !virtual_set).count_ones(),
            fake_spent: false,
            virtual_value: 0.0,
            virtual_lost: (arrested & virtual_set).count_ones(),
        };
        let mut w = workers;
        while w != 0 {
            let i = w.trailing_zeros() as usize;
            w &= w - 1;
            let r = self.route(i, patrols, fakes >> i & 1 != 0);
            if i == loc.idx() {
                res.home_new = r < 2;
                res.fake_spent = fake && r == 1;
            } else if virtual_set >> i & 1 != 0 {
                let &(_, value, safe) = virt.iter().find(|v| v.0.idx() == i).unwrap();
                if r < 2 || safe {
                    res.virtual_value += value;
                }
                if r == 2 {
                    res.virtual_lost += 1;
                }
            } else if r == 2 {
                res.others_lost += 1;
            }
        }
        res
    }
}
