//! The environment contract every game must keep, checked once for all of them: each check is
//! generic over the `Game` and takes the game's own `Config` (and, for options, its own parser
//! and bad inputs); `env_conformance_tests!` makes one `#[test]` of each for a game. The batch
//! engine's checks (thread counts, autoreset) are `crate::vector::conformance`.

use super::versus::{load_match, LearnerOutcome, OpponentKind, Rewards, TwoPlayer, Versus};
use super::{from_snapshot, snapshot, Config, IllegalPolicy, Slot};
use crate::error::Error;
use crate::game::Game;

/// Plays from `slot`'s state with its sampler until the episode ends or `steps` decisions;
/// returns the actions and each state's save.
fn play<G: Game>(c: &Config<G>, slot: &mut Slot<G>, steps: usize) -> Vec<(usize, String)> {
    let mut trace = Vec::new();
    while !slot.done() && trace.len() < steps {
        let a = slot.sample().expect("a legal action while the episode goes on");
        slot.step(c, a as i64).unwrap_or_else(|e| panic!("the sampled action {a} was refused: {e}"));
        trace.push((a, G::save(slot.state())));
    }
    trace
}

/// After a reset the episode goes on, its mask is the state's legal actions (at least one) and
/// the observation row is the game's size of finite values.
pub fn reset_masks<G: Game>(c: &Config<G>) {
    for seed in 0..8 {
        let mut slot = Slot::<G>::new(seed);
        slot.reset(&c.setup).unwrap();
        assert!(!slot.done(), "seed {seed}: the episode is over at its reset");
        assert_eq!(slot.mask(), &G::legal_mask(slot.state()), "seed {seed}: the mask is not the state's");
        let mut row = vec![false; G::NUM_ACTIONS];
        slot.write_mask(&mut row);
        assert!(row.iter().any(|&m| m), "seed {seed}: no legal action after a reset");
        for (i, &m) in row.iter().enumerate() {
            assert_eq!(m, G::is_legal(slot.mask(), i), "seed {seed}: mask row {i}");
        }
        let mut obs = vec![f32::NAN; G::obs_size()];
        slot.write_observation(&mut obs);
        assert!(obs.iter().all(|x| x.is_finite()), "seed {seed}: an observation value not written");
    }
}

/// Saves load back to the same state; a clone, a reloaded state and a snapshot each play on as
/// the original does.
pub fn save_and_clone_round_trip<G: Game>(c: &Config<G>, steps: usize) {
    let mut slot = Slot::<G>::new(5);
    slot.reset(&c.setup).unwrap();
    for (t, (_, save)) in play(c, &mut slot.clone(), steps).into_iter().enumerate() {
        let loaded = G::load(&save).unwrap_or_else(|e| panic!("step {t}: its own save does not load: {e}"));
        assert_eq!(G::save(&loaded), save, "step {t}: a loaded save saves differently");
    }
    play(c, &mut slot, steps / 2);
    assert_eq!(&G::load(&G::save(slot.state())).unwrap(), slot.state());
    let (c2, mut restored) = from_snapshot::<G>(&snapshot(c, &slot)).unwrap();
    assert_eq!(&c2.setup, &c.setup);
    let mut clone = slot.clone();
    let original = play(c, &mut slot, steps);
    assert_eq!(play(c, &mut clone, steps), original, "a clone plays on differently");
    assert_eq!(play(&c2, &mut restored, steps), original, "a snapshot plays on differently");
    assert!(G::load("{}").is_err() && G::load("not json").is_err(), "a save without a game loads");
}

/// The same stream seed plays the same episode; other seeds do not all play it.
pub fn same_seed_same_episode<G: Game>(c: &Config<G>, steps: usize) {
    let episode = |seed: u64| {
        let mut slot = Slot::<G>::new(seed);
        slot.reset(&c.setup).unwrap();
        (G::save(slot.state()), play(c, &mut slot, steps))
    };
    let first = episode(11);
    assert_eq!(episode(11), first, "the same seed played another episode");
    assert!((12..16).any(|s| episode(s) != first), "every seed played the same episode");
}

/// An illegal action ends the episode as `G::illegal_outcome()` under `Terminate` and is refused,
/// leaving the state as it was, under `Raise`; an action out of range is refused under both, and
/// a step after the end is `GameOver`.
pub fn illegal_actions<G: Game>(c: &Config<G>) {
    // The first state along a sampled episode with an illegal action.
    let mut slot = Slot::<G>::new(3);
    slot.reset(&c.setup).unwrap();
    let start = slot.clone();
    let illegal = loop {
        if slot.done() {
            // A game where every action is legal at every decision (a pass/bet game): only the
            // out-of-range actions are checked, from the first state.
            slot = start;
            break None;
        }
        if let Some(i) = (0..G::NUM_ACTIONS).find(|&i| !G::is_legal(slot.mask(), i)) {
            break Some(i as i64);
        }
        let a = slot.sample().unwrap();
        slot.step(c, a as i64).unwrap();
    };
    for policy in [IllegalPolicy::Terminate, IllegalPolicy::Raise] {
        let c = Config { illegal: policy, ..c.clone() };
        for out_of_range in [G::NUM_ACTIONS as i64, -1] {
            let mut s = slot.clone();
            assert!(matches!(s.step(&c, out_of_range), Err(Error::ActionOutOfRange { .. })), "{policy:?}");
            assert_eq!(s.state(), slot.state());
        }
        let Some(illegal) = illegal else { continue };
        let mut s = slot.clone();
        match policy {
            IllegalPolicy::Terminate => {
                let t = s.step(&c, illegal).unwrap();
                assert!(t.terminated && t.illegal && t.outcome == Some(G::illegal_outcome()));
                let r = G::terminal_reward(&c.rewards, slot.state(), G::illegal_outcome(), true);
                assert_eq!(t.reward, r);
                assert!(s.done() && matches!(s.step(&c, 0), Err(Error::GameOver)));
            }
            IllegalPolicy::Raise => {
                let e = s.step(&c, illegal).unwrap_err();
                assert!(!e.to_string().is_empty());
                assert_eq!(s.state(), slot.state(), "a refused action changed the state");
                assert_eq!(s.mask(), slot.mask());
                assert!(!s.done());
            }
        }
    }
}

/// Each of `bad` is refused by `parse` (the game's reset options over `base`) with a message;
/// each of `good` is taken. Each of `bad_setups` is refused by `Config::new`.
pub fn bad_options_refused<G: Game>(
    c: &Config<G>,
    parse: impl Fn(&G::Setup, &serde_json::Value) -> crate::error::Result<G::Setup>,
    good: &[serde_json::Value],
    bad: &[serde_json::Value],
    bad_setups: &[G::Setup],
) {
    for o in good {
        parse(&c.setup, o).unwrap_or_else(|e| panic!("the options {o} were refused: {e}"));
    }
    for o in bad {
        match parse(&c.setup, o) {
            Ok(_) => panic!("the options {o} were taken"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    for s in bad_setups {
        assert!(Config::<G>::new(s.clone(), c.rewards.clone(), c.illegal).is_err(), "{s:?} was taken");
    }
}

/// The game's bundled opponents without a network (a small game may have no search).
fn opponents<T: TwoPlayer>() -> Vec<OpponentKind> {
    [OpponentKind::Random, OpponentKind::Heuristic, OpponentKind::Search]
        .into_iter()
        .filter(|&kind| T::bundled_opponent(kind, T::DEFAULT_BUDGET, 0).is_ok())
        .collect()
}

/// A two-player game against each bundled opponent from both seats (`cfg(side, opponent)`): the
/// learner decides at every state handed back, every episode ends, and the last reward is the
/// learner's outcome's (1, 0, -1).
pub fn learner_always_decides<T: TwoPlayer>(cfg: impl Fn(T::Side, OpponentKind) -> Config<Versus<T>>) {
    for side in [T::DEFAULT_SIDE, T::other(T::DEFAULT_SIDE)] {
        for kind in opponents::<T>() {
            let c = cfg(side, kind);
            let mut slot = Slot::<Versus<T>>::new(3);
            slot.reset(&c.setup).unwrap();
            let mut reward = None;
            while !slot.done() {
                assert_eq!(T::to_move(&slot.state().game), Some(side), "the learner decides");
                let a = slot.sample().unwrap();
                reward = Some(slot.step(&c, a as i64).unwrap().reward);
            }
            let m = load_match::<T>(&Versus::<T>::save(slot.state())).unwrap();
            assert!(T::is_over(&m.game));
            let expected = match m.outcome().unwrap() {
                LearnerOutcome::Win => 1.0,
                LearnerOutcome::Draw => 0.0,
                LearnerOutcome::Loss => -1.0,
            };
            assert_eq!(reward, Some(expected), "{side:?} against {kind:?}");
        }
    }
}

/// A match saved against each bundled opponent loads back equal and plays on as the original
/// (the opponent's stream is saved with it); a save of another version is refused.
pub fn match_save_round_trip<T: TwoPlayer>(cfg: impl Fn(T::Side, OpponentKind) -> Config<Versus<T>>) {
    for kind in opponents::<T>() {
        let c = cfg(T::DEFAULT_SIDE, kind);
        let mut slot = Slot::<Versus<T>>::new(9);
        slot.reset(&c.setup).unwrap();
        play(&c, &mut slot, 5);
        let save = Versus::<T>::save(slot.state());
        let loaded = load_match::<T>(&save).unwrap();
        assert_eq!(&loaded, slot.state());
        let mut other = slot.clone();
        other.set_state(loaded);
        assert_eq!(play(&c, &mut other, 20), play(&c, &mut slot, 20), "against {kind:?}");
        assert!(load_match::<T>(&save.replace("\"version\":1", "\"version\":2")).is_err());
    }
    assert!(load_match::<T>("{}").is_err());
}

/// With the margin reward, from each seat, an episode's last reward is the learner's margin in
/// the final game (`TwoPlayer::margin`), in [-1, 1]; returns each seat's final game.
pub fn margin_reward<T: TwoPlayer>(cfg: impl Fn(T::Side, OpponentKind) -> Config<Versus<T>>) -> Vec<T::State> {
    [T::DEFAULT_SIDE, T::other(T::DEFAULT_SIDE)]
        .into_iter()
        .map(|side| {
            let c = Config { rewards: Rewards::Margin, ..cfg(side, OpponentKind::Random) };
            let mut slot = Slot::<Versus<T>>::new(4);
            slot.reset(&c.setup).unwrap();
            let mut r = f64::NAN;
            while !slot.done() {
                let a = slot.sample().unwrap();
                r = slot.step(&c, a as i64).unwrap().reward;
            }
            let game = slot.state().game.clone();
            assert!((r - T::margin(&game, side)).abs() < 1e-9 && (-1.0..=1.0).contains(&r), "{side:?}: {r}");
            game
        })
        .collect()
}

/// One `#[test]` per check of `crate::env::conformance` and `crate::vector::conformance` for the
/// game `$game`: `config` makes its configuration, `parse` reads its reset options over a setup,
/// with options it must take (`good`) and refuse (`bad`), and setups it must refuse
/// (`bad_setups`); `steps` bounds the episodes played.
#[macro_export]
macro_rules! env_conformance_tests {
    (
        game: $game:ty,
        config: $config:expr,
        parse: $parse:expr,
        good: $good:expr,
        bad: $bad:expr,
        bad_setups: $bad_setups:expr,
        steps: $steps:expr $(,)?
    ) => {
        fn conformance_config() -> $crate::env::Config<$game> {
            $config
        }
        #[test]
        fn reset_masks() {
            $crate::env::conformance::reset_masks::<$game>(&conformance_config());
        }
        #[test]
        fn save_and_clone_round_trip() {
            $crate::env::conformance::save_and_clone_round_trip::<$game>(&conformance_config(), $steps);
        }
        #[test]
        fn same_seed_same_episode() {
            $crate::env::conformance::same_seed_same_episode::<$game>(&conformance_config(), $steps);
        }
        #[test]
        fn illegal_actions() {
            $crate::env::conformance::illegal_actions::<$game>(&conformance_config());
        }
        #[test]
        fn bad_options_refused() {
            $crate::env::conformance::bad_options_refused::<$game>(
                &conformance_config(),
                $parse,
                &$good,
                &$bad,
                &$bad_setups,
            );
        }
        #[test]
        fn vector_engine_same_for_any_thread_count_and_as_single_slots() {
            $crate::vector::conformance::same_for_any_thread_count_and_as_single_slots::<$game>(
                &conformance_config(),
                3,
                $steps,
            )
            .unwrap();
        }
        #[test]
        fn autoreset_masks() {
            $crate::vector::conformance::autoreset_masks::<$game>(&conformance_config(), $steps * 4);
        }
    };
}

/// `env_conformance_tests!` and the two-player checks for the two-player game `$two`:
/// `versus_config` makes its configuration for a side and an opponent.
#[macro_export]
macro_rules! versus_conformance_tests {
    (two: $two:ty, versus_config: $versus_config:expr, $($rest:tt)*) => {
        $crate::env_conformance_tests! { game: $crate::env::versus::Versus<$two>, $($rest)* }
        #[test]
        fn learner_always_decides() {
            $crate::env::conformance::learner_always_decides::<$two>($versus_config);
        }
        #[test]
        fn margin_reward() {
            $crate::env::conformance::margin_reward::<$two>($versus_config);
        }
        #[test]
        fn match_save_round_trip() {
            $crate::env::conformance::match_save_round_trip::<$two>($versus_config);
        }
    };
}
