//! The one own-account rule: whether a comment's author is the tool's own account, for every flow
//! that trusts its own markers (the queue's claims and set-asides, the follow-up's pings).

/// Whether `author` is `viewer`, the account the tool runs as. The readers spell a GitHub App's
/// account the REST way, `name[bot]`; a viewer given bare (`name`, GraphQL's spelling of a Bot) still
/// matches its `name[bot]` comments. The other way round never matches: a User whose login is the
/// App's login without `[bot]` is another account, and trusting it would let anyone who registers
/// that name forge the tool's markers.
pub fn is_own(author: &str, viewer: &str) -> bool {
    let norm = |s: &str| s.trim_start_matches('@').to_ascii_lowercase();
    let (author, viewer) = (norm(author), norm(viewer));
    author == viewer || (!viewer.ends_with("[bot]") && author == format!("{viewer}[bot]"))
}

#[cfg(test)]
mod tests {
    use super::is_own;

    #[test]
    fn a_user_named_like_the_app_without_bot_is_not_the_app() {
        assert!(!is_own("github-actions", "github-actions[bot]"));
        assert!(!is_own("mallory", "prflow-bot"));
    }

    #[test]
    fn one_account_whichever_way_it_is_spelled() {
        assert!(is_own("github-actions[bot]", "github-actions[bot]"));
        assert!(is_own("github-actions[bot]", "github-actions"));
        assert!(is_own("@Prflow-Bot", "prflow-bot"));
    }
}
