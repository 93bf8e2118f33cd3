//! I1–I5: the Resistance's higher/lower guesses, answered truthfully by the engine.

use super::allocation::zone_value;
use super::ids::{Answer, Phase, Zone, GUESSES};
use super::state::{Guess, Interrogation, State};

impl Interrogation {
    pub fn new() -> Interrogation {
        Interrogation { log: [None; GUESSES as usize], n: 0, guesses_left: GUESSES, stopped: false }
    }
    pub fn guesses(&self) -> impl Iterator<Item = &Guess> {
        self.log.iter().take(self.n as usize).flatten()
    }
    /// I3: a zone is closed once guessed and followed by a guess in another zone.
    pub fn is_open(&self, zone: Zone) -> bool {
        let last = self.guesses().last().map(|g| g.zone);
        last == Some(zone) || self.guesses().all(|g| g.zone != zone)
    }
    /// I3: the closed zones, Z1 order.
    pub fn closed(&self) -> impl Iterator<Item = Zone> + '_ {
        Zone::ALL.iter().copied().filter(move |&z| !self.is_open(z))
    }
    /// The tightest bounds within 1–10 the answers give for `zone`'s value.
    pub fn bounds(&self, zone: Zone) -> (u8, u8) {
        let (mut lo, mut hi) = (1u8, 10u8);
        for g in self.guesses().filter(|g| g.zone == zone) {
            match g.answer {
                Answer::TooHigh => hi = hi.min(g.value.saturating_sub(1)),
                Answer::TooLow => lo = lo.max(g.value + 1),
                Answer::Correct => {
                    lo = g.value;
                    hi = g.value;
                }
            }
        }
        (lo, hi)
    }
}

impl Default for Interrogation {
    fn default() -> Self {
        Interrogation::new()
    }
}

/// I2, I3: why `guess:<zone>:<value>` is illegal now, if it is.
pub fn check_guess(s: &State, zone: Zone) -> Result<(), &'static str> {
    if s.interrogation.guesses_left == 0 {
        return Err("no guesses left");
    }
    if !s.interrogation.is_open(zone) {
        return Err("the zone is closed: a later guess was made in another zone (I3)");
    }
    Ok(())
}

/// I2: answer the guess truthfully and log it; I4: the 7th guess ends the interrogation.
pub fn guess(s: &mut State, zone: Zone, value: u8) {
    let actual = zone_value(&s.contents()[zone.idx()]);
    let answer = match value.cmp(&actual) {
        std::cmp::Ordering::Greater => Answer::TooHigh,
        std::cmp::Ordering::Less => Answer::TooLow,
        std::cmp::Ordering::Equal => Answer::Correct,
    };
    let i = &mut s.interrogation;
    i.log[i.n as usize] = Some(Guess { zone, value, answer });
    i.n += 1;
    i.guesses_left -= 1;
    if i.guesses_left == 0 {
        s.phase = Phase::Attack;
    }
}

/// I4: stop, forfeiting the guesses left.
pub fn stop(s: &mut State) {
    s.interrogation.stopped = true;
    s.interrogation.guesses_left = 0;
    s.phase = Phase::Attack;
}
