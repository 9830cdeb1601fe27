//! `scope:*` labels from changed paths, the job actions/labeler did: a label applies when any of its
//! globs matches any changed file.

use crate::core::facts::{PullFact, PullRequest};
use crate::core::glob::LabelerGlob;
use crate::core::labels::Wants;

/// The config's scopes with their globs read once per board, not once for every changed file of
/// every pull request: each label, and each glob as written (the reason quotes it) beside its reading.
pub struct Scopes<'c>(Vec<(&'c str, Vec<(&'c str, LabelerGlob)>)>);

impl<'c> Scopes<'c> {
    pub fn new(scopes: &'c std::collections::BTreeMap<String, Vec<String>>) -> Scopes<'c> {
        Scopes(
            scopes
                .iter()
                .map(|(label, globs)| {
                    (
                        label.as_str(),
                        globs.iter().map(|g| (g.as_str(), LabelerGlob::new(g))).collect(),
                    )
                })
                .collect(),
        )
    }
}

pub fn scope_wants(pr: &PullRequest, scopes: &Scopes, sync: bool, wants: &mut Wants) {
    if pr.unknown(PullFact::Files) || scopes.0.is_empty() {
        return;
    }
    let paths: Vec<Vec<&str>> = pr.files.iter().map(|f| f.split('/').collect()).collect();
    for (label, globs) in &scopes.0 {
        // The reason names the first matching path in path order, so the order the files were listed
        // in never changes the plan.
        let hit = pr
            .files
            .iter()
            .zip(&paths)
            .filter_map(|(f, segs)| globs.iter().find(|(_, g)| g.matches(segs)).map(|(g, _)| (f, g)))
            .min_by(|a, b| a.0.cmp(b.0));
        match hit {
            Some((file, glob)) => wants.present(label, [file, " matches ", glob].concat()),
            None if sync => wants.absent_if_carried(pr, label, || "no changed file matches its globs".into()),
            None => {}
        }
    }
}
