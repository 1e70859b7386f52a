//! The docs' table of the component spec's keys is the table the parser uses
//! (`ma_es::variant::SPEC_KEYS`), and every key parses, prints and names its values.

use emages_paper::DocBlock;
use ma_es::variant::{spec_keys_markdown, SPEC_KEYS};
use ma_es::ComponentSpec;
use std::path::PathBuf;

fn block() -> DocBlock {
    DocBlock::new(
        "`EMAGES_UPDATE_DOCS=1 cargo test --test spec_keys`",
        "spec keys",
    )
}

#[test]
fn the_architecture_guide_lists_the_keys_of_the_table() {
    let doc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md");
    let table = spec_keys_markdown();
    if std::env::var_os("EMAGES_UPDATE_DOCS").is_some() {
        block().replace(&doc, &table).unwrap();
    }
    let text = std::fs::read_to_string(&doc).unwrap();
    let quoted = block()
        .read(&text)
        .expect("docs/architecture.md has the block");
    assert_eq!(
        quoted, table,
        "docs/architecture.md: the spec keys are stale; run EMAGES_UPDATE_DOCS=1 cargo test --test spec_keys"
    );
    assert_eq!(table.lines().count(), SPEC_KEYS.len() + 2);
}

/// Every key: a bad value is an error naming the key and the values it takes; a key
/// set away from εMAg-ES prints in the canonical form and parses back.
#[test]
fn every_key_names_its_values_and_round_trips() {
    for k in SPEC_KEYS {
        let err = format!("eps-mag-es:{}=nonsense", k.name)
            .parse::<ComponentSpec>()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("{}=nonsense: expected {}", k.name, (k.values)())),
            "{err}"
        );
    }
    let err = "eps-mag-es:restart=bipop"
        .parse::<ComponentSpec>()
        .unwrap_err()
        .to_string();
    let names: Vec<&str> = SPEC_KEYS.iter().map(|k| k.name).collect();
    assert!(
        err.ends_with(&format!("the keys are {}", names.join(", "))),
        "{err}"
    );
    let mut checked = 0;
    for text in [
        "eps-mag-es:repair=off",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-probability=50%:lm-iterations=8:lm-best=on:lm-best-iterations=100:lm-scaling=box:lm-solve=full",
        "eps-mag-es:jacobian=differences",
        "eps-mag-es:back-calculation=identity",
        "eps-mag-es:sigma-cap=off",
        "eps-mag-es:matrix-adaptation=off",
        "eps-mag-es:ordering=lexicographic",
        "eps-mag-es:step-size=constant",
        "eps-mag-es:ranking=stochastic",
        "eps-mag-es:restarts=ipop",
        "eps-mag-es:population=log",
        "eps-mag-es:stall=progress",
        "eps-mag-es:eps-end=5%",
        "eps-mag-es:polish=25%",
        "eps-mag-es:opening=augmented-lagrangian",
        "eps-mag-es:tol-fun=1e-8",
        "eps-mag-es:tol-x=0",
        "eps-mag-es:target=-43.5",
        "eps-mag-es:stagnation=0",
    ] {
        let spec: ComponentSpec = text.parse().unwrap();
        let printed = spec.to_string();
        // ordering=lexicographic with repair on is the preset lex-mag-es.
        assert!(
            printed == text || spec.preset().is_some(),
            "{printed} vs {text}"
        );
        assert_eq!(printed.parse::<ComponentSpec>().unwrap(), spec);
        checked += 1;
    }
    // The Levenberg–Marquardt case covers the seven `lm-*` keys in one.
    assert_eq!(checked + 6, SPEC_KEYS.len(), "one case per key");
}
