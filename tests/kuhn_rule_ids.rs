//! Every rule id of docs/rules/kuhn.md (`**K1.`, `**B3.` …) has a test named after it,
//! `kuhn_<id>_…` (the convention of the shared rule-coverage tool, which lists the other games),
//! in tests/ or in src/.

use std::path::Path;

/// The ids of the rules: a line starting `**` then one to three capitals and a number.
fn rule_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("**") else { continue };
        let letters = rest.chars().take_while(|c| c.is_ascii_uppercase()).count();
        let digits = rest[letters..].chars().take_while(|c| c.is_ascii_digit()).count();
        let next = rest[letters + digits..].chars().next();
        if (1..=3).contains(&letters) && digits > 0 && !next.is_some_and(|c| c.is_alphanumeric()) {
            let id = rest[..letters + digits].to_string();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

fn rust_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn every_kuhn_rule_id_has_a_test_named_after_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ids = rule_ids(&std::fs::read_to_string(root.join("docs/rules/kuhn.md")).unwrap());
    assert!(ids.len() >= 15, "the rules' ids: {ids:?}");
    let mut texts = Vec::new();
    rust_files(&root.join("tests"), &mut texts);
    rust_files(&root.join("src"), &mut texts);
    let text = texts.join("\n");
    let missing: Vec<_> =
        ids.iter().filter(|id| !text.contains(&format!("fn kuhn_{}_", id.to_lowercase()))).collect();
    assert!(missing.is_empty(), "rules of docs/rules/kuhn.md without a test `kuhn_<id>_…`: {missing:?}");
}

#[test]
fn rule_ids_are_read_from_bold_numbered_lines_only() {
    assert_eq!(rule_ids("**K1. Cards.** x\n**Ruling:** y\n  **B12. z**\n**P2x.**\n**ABCD1.**"), ["K1", "B12"]);
}
