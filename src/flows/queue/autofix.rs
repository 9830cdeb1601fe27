//! Auto-fix eligibility (`autoFix` in the config): whether a failure is only a fixer's diff, and
//! the commands that would fix it, in order: `before`, the `prepare` steps a fixed context asks
//! for, the fixers by stage then command, `after`. Any failure no fixer matches means nothing is
//! fixed: pushing would run a matrix that fails anyway. `$1`..`$9` are shell-quoted capture groups.

use crate::core::config::queue::{compile, AutoFixConfig, AutoFixStep};
use regex_lite::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Quote one argument for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `run` with `$1`..`$9` replaced by the shell-quoted groups (an unmatched group is `''`).
pub fn expand(run: &str, caps: &regex_lite::Captures) -> String {
    let mut out = String::new();
    let b = run.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' && i + 1 < b.len() && (b'1'..=b'9').contains(&b[i + 1]) {
            let g = (b[i + 1] - b'0') as usize;
            out.push_str(&shell_quote(caps.get(g).map(|m| m.as_str()).unwrap_or("")));
            i += 2;
        } else {
            let ch = run[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutoFix {
    pub eligible: bool,
    /// Why not, or what it fixes.
    pub reason: String,
    /// The commands to run, in order.
    pub commands: Vec<String>,
    pub ignored: Vec<String>,
    /// Failed contexts no fixer matches.
    pub unfixable: Vec<String>,
}

pub fn auto_fix(cfg: Option<&AutoFixConfig>, failed: &[String], commit_count: Option<u32>) -> AutoFix {
    let mut out = AutoFix::default();
    let Some(cfg) = cfg else {
        out.reason = "no autoFix configured".into();
        return out;
    };
    let ignore: Vec<Regex> = cfg.ignore.iter().filter_map(|r| compile(r).ok()).collect();
    let fixers: Vec<(Regex, &AutoFixStep)> = cfg
        .fixers
        .iter()
        .filter_map(|s| compile(&s.context).ok().map(|r| (r, s)))
        .collect();
    let prepare: Vec<(Regex, &AutoFixStep)> = cfg
        .prepare
        .iter()
        .filter_map(|s| compile(&s.context).ok().map(|r| (r, s)))
        .collect();
    let mut fixed: Vec<(i32, String)> = Vec::new();
    let mut fixed_contexts = Vec::new();
    for context in failed {
        if ignore.iter().any(|r| r.is_match(context)) {
            out.ignored.push(context.clone());
            continue;
        }
        match fixers
            .iter()
            .find_map(|(r, s)| r.captures(context).map(|c| (s.stage, expand(&s.run, &c))))
        {
            Some(cmd) => {
                fixed.push(cmd);
                fixed_contexts.push(context.clone());
            }
            None => out.unfixable.push(context.clone()),
        }
    }
    if !out.unfixable.is_empty() {
        out.reason = format!("not only a fixer's diff: {} failed", out.unfixable.join(", "));
        return out;
    }
    if fixed.is_empty() {
        out.reason = "no failure a fixer matches".into();
        return out;
    }
    match commit_count {
        Some(1) => {}
        Some(n) => {
            out.reason =
                format!("the branch has {n} commits, not one: squashing writes a message, which is the fixer's to do");
            return out;
        }
        None => {
            out.reason = "the branch's commit count was not read".into();
            return out;
        }
    }
    let mut commands: Vec<String> = cfg.before.clone();
    for (r, s) in &prepare {
        for context in &fixed_contexts {
            if let Some(c) = r.captures(context) {
                let cmd = expand(&s.run, &c);
                if !commands.contains(&cmd) {
                    commands.push(cmd);
                }
            }
        }
    }
    fixed.sort();
    fixed.dedup();
    commands.extend(fixed.into_iter().map(|(_, c)| c));
    commands.extend(cfg.after.iter().cloned());
    out.eligible = true;
    out.reason = format!("only a fixer's diff: {}", fixed_contexts.join(", "));
    out.commands = commands;
    out
}
