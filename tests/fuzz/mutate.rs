//! Mutations of saved states for the load fuzzers (tests/fuzz_load.rs, tests/dday_invariants.rs):
//! one to three edits of a real save's JSON — a field set to an edge value, nudged by one, a bit
//! flipped, a list shortened, lengthened or reversed, a key removed or added — so that most
//! mutants still parse and reach the validation of `load_state`, not just the JSON reader.
#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// How many cases a fuzz test runs: `MAQUIS_FUZZ_CASES` if set (long runs), else `default`.
pub fn cases(default: u64) -> u64 {
    std::env::var("MAQUIS_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Every path (object keys and array indices) under `v`, containers included.
pub fn paths(v: &Value, path: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    out.push(path.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(Key::Field(k.clone()));
                paths(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Key::Index(i));
                paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    Field(String),
    Index(usize),
}

pub fn at<'a>(mut v: &'a mut Value, path: &[Key]) -> &'a mut Value {
    for k in path {
        v = match k {
            Key::Field(f) => &mut v[f.as_str()],
            Key::Index(i) => &mut v[*i],
        };
    }
    v
}

fn edge_value(rng: &mut ChaCha8Rng) -> Value {
    const INTS: [i128; 26] =
        [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 31, 63, 127, 128, 255, 256, 65535, 1 << 32];
    match rng.gen_range(0..10) {
        0..=5 => json!(INTS[rng.gen_range(0..INTS.len())] as i64),
        6 => json!([u64::MAX, i64::MIN as u64, u64::MAX / 2][rng.gen_range(0..3)]),
        7 => [json!(null), json!(true), json!(false), json!(1.5), json!(-0.0)][rng.gen_range(0..5)].clone(),
        8 => {
            [json!("x"), json!("game_over"), json!("worker"), json!("milice"), json!("infiltration"), json!("field_w")]
                [rng.gen_range(0..6)]
            .clone()
        }
        _ => [json!([]), json!({}), json!([0]), json!([null])][rng.gen_range(0..4)].clone(),
    }
}

/// One edit of `doc` at a random path under `root` (a JSON pointer to the state); a description
/// of it for the failure message.
pub fn mutate_once(doc: &mut Value, root: &str, rng: &mut ChaCha8Rng) -> String {
    let mut all = Vec::new();
    paths(doc.pointer(root).expect("the root exists"), &mut Vec::new(), &mut all);
    let path = all[rng.gen_range(0..all.len())].clone();
    let node = at(doc.pointer_mut(root).unwrap(), &path);
    let before = node.to_string();
    let kind = rng.gen_range(0..10);
    match (&mut *node, kind) {
        (Value::Number(n), 0..=3) if n.is_u64() => {
            let x = n.as_u64().unwrap();
            *node = match rng.gen_range(0..3) {
                0 => json!(x.wrapping_add(1)),
                1 => json!(x as i64 - 1),
                _ => json!(x ^ (1 << rng.gen_range(0..8))),
            };
        }
        (Value::Bool(b), 0..=3) => *b = !*b,
        (Value::Array(a), 0..=3) if !a.is_empty() => match rng.gen_range(0..4) {
            0 => {
                a.pop();
            }
            1 => {
                let last = a.last().unwrap().clone();
                a.push(last);
            }
            2 => a.reverse(),
            _ => {
                let (i, j) = (rng.gen_range(0..a.len()), rng.gen_range(0..a.len()));
                a.swap(i, j);
            }
        },
        (Value::Object(m), 0..=2) if !m.is_empty() => {
            let k = m.keys().nth(rng.gen_range(0..m.len())).unwrap().clone();
            if rng.gen_bool(0.5) {
                m.remove(&k);
            } else {
                m.insert(format!("{k}_extra"), json!(0));
            }
        }
        _ => *node = edge_value(rng),
    }
    format!("{root}{} : {before} -> {}", path_str(&path), at(doc.pointer_mut(root).unwrap(), &path))
}

/// One to three edits (mostly one).
pub fn mutate(doc: &mut Value, root: &str, rng: &mut ChaCha8Rng) -> Vec<String> {
    let n = [1, 1, 1, 2, 3][rng.gen_range(0..5)];
    (0..n).map(|_| mutate_once(doc, root, rng)).collect()
}

fn path_str(p: &[Key]) -> String {
    p.iter()
        .map(|k| match k {
            Key::Field(f) => format!("/{f}"),
            Key::Index(i) => format!("/{i}"),
        })
        .collect()
}

/// What a game-save fuzz run needs of its game: `load` (refusing with `BadSave`), `save`, the
/// game's `validate`, and `play_on(state, case)`, which plays a loaded state on and returns the
/// steps played.
pub struct GameSaves<S, L, W, V, P> {
    pub name: &'static str,
    pub load: L,
    pub save: W,
    pub validate: V,
    pub play_on: P,
    pub _state: std::marker::PhantomData<S>,
}

/// `cases` mutants (one to three edits under `/state`) of saves drawn from `positions`: each is
/// refused with a named `BadSave`, or loads a state that passes `validate`, round-trips exactly
/// and plays on without a panic. Prints the counts and asserts that some, not all, were accepted.
pub fn fuzz_game_saves<S, L, W, V, P>(g: &GameSaves<S, L, W, V, P>, positions: &[Value], seed: u64, cases: u64)
where
    S: PartialEq + std::fmt::Debug,
    L: Fn(&str) -> maquis::Result<S>,
    W: Fn(&S) -> String,
    V: Fn(&S) -> maquis::Result<()>,
    P: Fn(S, u64) -> usize,
{
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut accepted, mut steps) = (0u64, 0u64);
    let t0 = std::time::Instant::now();
    for case in 0..cases {
        let mut doc = positions[rng.gen_range(0..positions.len())].clone();
        let edits = mutate(&mut doc, "/state", &mut rng);
        let text = doc.to_string();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match (g.load)(&text) {
            Err(maquis::Error::BadSave(why)) => {
                assert!(!why.is_empty());
                None
            }
            Err(e) => panic!("refused with {e:?}, not BadSave"),
            Ok(s) => {
                (g.validate)(&s).expect("a loaded state is valid");
                assert_eq!((g.load)(&(g.save)(&s)).unwrap(), s, "an exact round trip");
                Some((g.play_on)(s, case))
            }
        }));
        match outcome {
            Ok(Some(n)) => {
                accepted += 1;
                steps += n as u64;
            }
            Ok(None) => {}
            Err(_) => panic!("case {case}: {edits:?} panicked (see above) in\n{text}"),
        }
    }
    eprintln!(
        "{}: {cases} cases, {accepted} accepted, {steps} steps played after a load, {:.1} s",
        g.name,
        t0.elapsed().as_secs_f64()
    );
    assert!(accepted > 0 && accepted < cases, "{accepted} of {cases} accepted");
}
