//! Short texts (reasons, context names) joined from pieces without `format!`: the formatting machinery
//! cost more than the copying for the few strings every pull request of a board gets (issue 16).

/// The pieces one after another, in one allocation of the exact size.
pub fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_in_order() {
        assert_eq!(concat(&["ci", " / ", "build"]), "ci / build");
        assert_eq!(concat(&[]), "");
    }
}
