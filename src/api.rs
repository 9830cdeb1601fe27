//! The engine's contract: one `Engine`, built once from the config text, and one request vocabulary.
//! Each decision is one input type and one output type in the `decisions!` table below; the Wasm
//! boundary, the native command, the fixture runner and the generated TypeScript all read that table,
//! so adding a decision is one type pair and one line here.
//!
//! A config is validated once, when the engine is built, and every error is kept with its JSON path.
//! A bad config is an input like any other: every decision that needs the config answers with those
//! errors and writes nothing (the plan-shaped answers carry them in `configErrors`; the others answer
//! `{ "configErrors": [...] }` instead of their usual shape). Decisions that read no config (a body's
//! trailers, CODEOWNERS, a check rollup) answer as usual. Only malformed facts are an error, naming
//! the JSON path inside the request.
// The pages' build compiles only its own decisions (the `decisions!` table): the other decisions'
// helpers and imports are unused there.
#![cfg_attr(not(feature = "full"), allow(dead_code, unused_imports))]

use crate::core::config::{Config, ConfigError};
use crate::core::facts::{Check, Facts};
use crate::flows::queue::{self, autofix, claim, declare, fixer, open, order, triage, watch};
use crate::flows::stations;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A validated config, or every problem in it; plus which optional sections the file named (the label
/// catalogue lists the queue's and the board's labels only for a team that uses them).
pub struct Engine {
    config: Result<Config, Vec<ConfigError>>,
    has_queue: bool,
    has_followup: bool,
}

impl Engine {
    /// From the config file's text. Text that is not JSON (an empty file too), or JSON that is not an
    /// object, is a config error at `$`.
    pub fn new(config_text: &str) -> Engine {
        let loaded = crate::core::config::load(config_text);
        Engine {
            config: loaded.config,
            has_queue: loaded.has_queue,
            has_followup: loaded.has_followup,
        }
    }

    /// The engine when the repository has no config file: the preset.
    pub fn preset() -> Engine {
        Engine::new("{}")
    }

    /// From a config value already parsed (`null` is a config error: only an object is a config).
    pub fn from_value(value: Value) -> Engine {
        Engine::new(&value.to_string())
    }

    /// Every problem of the config, each with its JSON path; empty when it is valid.
    pub fn config_errors(&self) -> &[ConfigError] {
        match &self.config {
            Ok(_) => &[],
            Err(errors) => errors,
        }
    }

    /// The validated config, or its errors as the answer a decision gives instead.
    pub fn config(&self) -> Result<&Config, Vec<ConfigError>> {
        self.config.as_ref().map_err(Clone::clone)
    }

    /// One decision by name, JSON text in and out (native, the fixture runner). Bad input is an error
    /// naming the decision and the JSON path in the request (`reconcile $.facts.now: ...`).
    pub fn call(&self, name: &str, input: &str) -> Result<String, String> {
        dispatch::<Text>(self, name, input)
    }

    /// The same through any codec: the Wasm boundary's is JS values in and out (src/wasm.rs).
    pub fn call_with<C: Codec>(&self, name: &str, input: C::In<'_>) -> Result<C::Out, String> {
        dispatch::<C>(self, name, input)
    }

    /// The same with values, for the fixture runner and tests.
    pub fn call_value(&self, name: &str, input: &Value) -> Result<Value, String> {
        let out = self.call(name, &input.to_string())?;
        serde_json::from_str(&out).map_err(|e| format!("{name}: {e}"))
    }
}

/// The answer of a decision that needs the config, when the config has errors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigRefusal {
    pub config_errors: Vec<ConfigError>,
}

/// The usual answer, or the config's errors (a decision whose usual answer has no `configErrors`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum OrRefusal<T> {
    Answer(T),
    Refused(ConfigRefusal),
}

/// Runs `f` under a valid config, or answers with the config's errors.
fn with_config<T>(engine: &Engine, f: impl FnOnce(&Config) -> Result<T, String>) -> Result<OrRefusal<T>, String> {
    match &engine.config {
        Ok(config) => f(config).map(OrRefusal::Answer),
        Err(errors) => Ok(OrRefusal::Refused(ConfigRefusal {
            config_errors: errors.clone(),
        })),
    }
}

/// The one check facts get beyond their shape: the engine has no clock, so `now` must be a time.
fn checked(facts: &Facts) -> Result<(), String> {
    match crate::core::time::parse_rfc3339(&facts.now) {
        Some(_) => Ok(()),
        None => Err(format!("$.facts.now: expected an RFC 3339 time, found {:?}", facts.now)),
    }
}

/// How a request is read and an answer written: JSON text here, JS values at the Wasm boundary.
pub trait Codec {
    type In<'a>;
    type Out;
    /// The request, or where it went wrong: a `PathError` names the JSON path (`$.facts.now`).
    fn read<T: serde::de::DeserializeOwned>(input: Self::In<'_>) -> Result<T, crate::codec::PathError>;
    fn write<T: Serialize>(out: &T) -> Result<Self::Out, String>;
}

/// JSON text in and out; an empty request is `{}`.
pub struct Text;

impl Codec for Text {
    type In<'a> = &'a str;
    type Out = String;
    fn read<T: serde::de::DeserializeOwned>(input: &str) -> Result<T, crate::codec::PathError> {
        crate::codec::from_str(if input.trim().is_empty() { "{}" } else { input })
    }
    fn write<T: Serialize>(out: &T) -> Result<String, String> {
        serde_json::to_string(out).map_err(|e| e.to_string())
    }
}

/// A bad request's error: the decision's name, then the path and serde's message.
fn input_error(name: &str, e: crate::codec::PathError) -> String {
    if e.syntax {
        format!("{name}: the input is not valid JSON: {}", e.message)
    } else {
        format!("{name} {}: {}", e.path, e.message)
    }
}

// ---- The inputs. A field's doc comment is what the generated TypeScript shows. ----

/// A request with nothing in it but the engine's config.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

/// A repository snapshot to decide.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FactsInput {
    pub facts: Facts,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckRollupInput {
    /// The head commit's check runs and statuses.
    pub checks: Vec<Check>,
    /// The contexts that must pass (absent: none).
    #[serde(default)]
    pub required_contexts: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClaimInput {
    pub facts: Facts,
    /// `review`, `dev` or `any`.
    pub role: String,
    /// The machine asking, as the config names it.
    pub machine: String,
    /// The races this machine lost already in this claim (each `resolveClaimRace` with `won: false`):
    /// after `MAX_RACES` (20) the answer is `queue-empty`.
    #[serde(default)]
    pub lost: u32,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolveClaimRaceInput {
    /// The labels read back from the pull request after the settle time.
    pub labels: Vec<String>,
    pub machine: String,
    #[serde(default)]
    pub number: u64,
    /// The claimer's own window in milliseconds, from its facts read to its claim write acknowledged:
    /// a window not shorter than the settle withdraws the claim (a rival may hold it unseen).
    #[serde(default)]
    pub took_ms: Option<f64>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabelSyncInput {
    /// The labels wanted, as `labelCatalog` answers them.
    pub catalog: crate::views::catalog::Catalog,
    /// The repository's labels as read.
    pub existing: Vec<crate::views::catalog::RepoLabel>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StationReviewInput {
    pub number: u64,
    /// The head the review is about.
    #[serde(default)]
    pub head: String,
    /// What the AI command printed.
    #[serde(default)]
    pub output: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GateClassifyInput {
    pub facts: Facts,
    pub number: u64,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GateReportInput {
    pub facts: Facts,
    pub number: u64,
    /// The commit the validation machine tested.
    pub tested_sha: String,
    /// `success`, `failure`, `cancelled` or `skipped`.
    pub result: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeOwnersInput {
    /// The text of CODEOWNERS.
    #[serde(default)]
    pub codeowners: String,
    pub path: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BodyInput {
    /// A pull request's (or comment's) body.
    #[serde(default)]
    pub body: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WatchStepInput {
    pub poll: watch::Poll,
    pub state: watch::WatchState,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClaimPrInput {
    pub facts: Facts,
    pub number: u64,
    /// Who claims (a login, or the worker's name).
    pub by: String,
    /// Give the claim back instead.
    #[serde(default)]
    pub release: bool,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenPrInput {
    pub facts: Facts,
    pub request: open::OpenPrRequest,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PushFixedPrInput {
    pub facts: Facts,
    pub request: open::PushFixedRequest,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixerPickInput {
    pub facts: Facts,
    /// The fixer station's name (the claimant's `by`).
    pub name: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixerBriefInput {
    pub pick: fixer::FixerPick,
    pub found: fixer::FixerFound,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixerGiveUpInput {
    pub facts: Facts,
    pub number: u64,
    pub name: String,
    /// What failed, in words, with the exit code (`the AI command exited 3`), for the comment.
    pub why: String,
    /// The last lines the command printed, redacted by the shell: quoted in a code block.
    #[serde(default)]
    pub output: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UnownedIssuesInput {
    pub facts: Facts,
    /// The issues `report-unowned` opened before (found again by their hidden line).
    #[serde(default)]
    pub issues: Vec<claim::KnownIssue>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoFixInput {
    /// The failed contexts.
    pub failed: Vec<String>,
    /// The branch's commits over its base; null when it could not be read.
    pub commit_count: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct YieldsToInput {
    pub mine: order::OrderKey,
    pub others: Vec<order::Released>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NumberInput {
    pub facts: Facts,
    pub number: u64,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GreenInput {
    pub checks: Vec<Check>,
    #[serde(default)]
    pub required: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OrderInput {
    pub keys: Vec<order::OrderKey>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetAsideAppliesInput {
    pub reason: String,
    pub at_head: String,
    pub at_base: String,
    pub head: String,
    #[serde(default)]
    pub base_tip: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetAsideCommentInput {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub head: String,
    #[serde(default)]
    pub base: String,
    #[serde(default)]
    pub detail: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueueChainInput {
    /// The queued pull requests in the queue's order (triage's `order`, each with its `waitingOn`).
    pub queue: Vec<queue::chain::Queued>,
    /// Pairs whose changes meet: the files both change, and whether `git merge-tree` conflicts.
    #[serde(default)]
    pub collisions: Vec<queue::chain::Collision>,
    /// The chain's size (`batchSize`'s answer); absent: `queue.batch.max`.
    #[serde(default)]
    pub size: Option<u32>,
}

/// A marker comment as the queue reads it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkerView {
    pub kind: String,
    pub fields: std::collections::BTreeMap<String, String>,
    pub retry_ticked: bool,
}

/// The decisions: `"name": Input => Output = |engine, input| answer;`, with the doc line the generated
/// TypeScript shows. `(fixture)` marks a rule exposed only so the fixture corpora can pin it alone: it
/// is compiled with the `fixtures` feature only (the tests'), so it is in no shipped Wasm, schema or
/// type. `[page]` or `[sim]` names the Cargo feature that builds a decision into a page's Wasm (the
/// dashboard's, the simulations'); the rest come with `full`, the default. A decision left out of a
/// build is not compiled into it at all: neither its reader, its rule nor its writer.
macro_rules! decisions {
    ($( $(#[doc = $doc:literal])* $name:literal $(($kind:ident))? $([$feature:ident])? : $input:ty => $output:ty = $run:expr; )*) => {
        fn dispatch<C: Codec>(engine: &Engine, name: &str, input: C::In<'_>) -> Result<C::Out, String> {
            $(decisions!(@when $($kind)? $($feature)? {
                if name == $name {
                    let input: $input = C::read(input).map_err(|e| input_error(name, e))?;
                    let run: fn(&Engine, &$input) -> Result<$output, String> = $run;
                    let out = run(engine, &input).map_err(|e| format!("{name} {e}"))?;
                    return C::write(&out).map_err(|e| format!("{name}: {e}"));
                }
            });)*
            let _ = input;
            Err(format!("unknown decision {name:?}; the engine knows {}", names().join(", ")))
        }

        /// The names of the decisions this build has, in the table's order.
        pub fn names() -> Vec<&'static str> {
            let mut names = Vec::new();
            $(decisions!(@when $($kind)? $($feature)? { names.push($name); });)*
            names
        }

        /// Each decision's name, its doc line, and the JSON Schemas of its input and output, generated
        /// from the Rust types (scripts/gen-types.mjs turns them into TypeScript): those this build has.
        pub fn decision_schemas() -> Value {
            let settings = schemars::gen::SchemaSettings::draft07();
            let schema = |s: schemars::schema::RootSchema| serde_json::to_value(s).expect("schema serializes");
            let mut out = serde_json::Map::new();
            $(decisions!(@when $($kind)? $($feature)? {
                let doc: Vec<&str> = vec![$($doc.trim()),*];
                out.insert($name.to_string(), serde_json::json!({
                    "doc": doc.join(" "),
                    "input": schema(settings.clone().into_generator().into_root_schema_for::<$input>()),
                    "output": schema(settings.clone().into_generator().into_root_schema_for::<$output>()),
                }));
            });)*
            Value::Object(out)
        }
    };
    (@when fixture { $($body:tt)* }) => { #[cfg(feature = "fixtures")] { $($body)* } };
    (@when page { $($body:tt)* }) => { #[cfg(feature = "page")] { $($body)* } };
    (@when sim { $($body:tt)* }) => { #[cfg(feature = "sim")] { $($body)* } };
    (@when { $($body:tt)* }) => { #[cfg(feature = "full")] { $($body)* } };
}

decisions! {
    /// The plan for a snapshot: every open pull request's labels and statuses, and why.
    "reconcile": FactsInput => crate::core::plan::Plan = |e, i| {
        checked(&i.facts)?;
        Ok(match &e.config {
            Ok(config) => crate::reconcile(&i.facts, config),
            Err(errors) => crate::views::reconcile::config_error_plan(errors.clone()),
        })
    };
    /// The follow-up sweep: comments for the levels due, claim releases, the board, and `stopTheLine`.
    "sweep": FactsInput => crate::flows::followup::SweepPlan = |e, i| {
        checked(&i.facts)?;
        Ok(match &e.config {
            // The board shows the queue's lane: worked out here, where flows meet.
            Ok(config) => {
                let ctx = queue::Ctx::new(&i.facts, config);
                let lane = queue::lane::lane(&ctx, &triage::triage(&ctx));
                crate::flows::followup::sweep_with_lane(&i.facts, config, &lane.entries)
            }
            Err(errors) => crate::flows::followup::SweepPlan { engine: crate::VERSION.to_string(), config_errors: errors.clone(), ..Default::default() },
        })
    };
    /// What the dashboard draws: one row per open pull request, the pick order and the warnings.
    "dashboard" [page]: FactsInput => crate::views::dashboard::DashboardView = |e, i| {
        checked(&i.facts)?;
        Ok(match &e.config {
            Ok(config) => crate::views::dashboard::dashboard(&i.facts, config),
            Err(errors) => crate::views::dashboard::DashboardView { engine: crate::VERSION.to_string(), config_errors: errors.clone(), ..Default::default() },
        })
    };
    /// The board settings a shell reads before the sweep, defaults filled in.
    "followupSettings": NoInput => crate::flows::followup::FollowupSettings = |e, _| Ok(match &e.config {
        Ok(config) => crate::flows::followup::FollowupSettings { config_errors: Vec::new(), board: Some(config.followup.board.clone()) },
        Err(errors) => crate::flows::followup::FollowupSettings { config_errors: errors.clone(), board: None },
    });
    /// Every label the config uses, with colour and description.
    "labelCatalog": NoInput => crate::views::catalog::Catalog = |e, _| Ok(crate::views::catalog::catalog_of(e.config.clone(), e.has_queue, e.has_followup));
    /// What `prflow labels` writes: a catalogue (`labelCatalog`'s) compared with the repository's labels as read (create, update, never delete).
    "labelSync": LabelSyncInput => crate::views::catalog::LabelSync = |_, i| Ok(crate::views::catalog::label_sync(&i.catalog, &i.existing));
    /// The config's problems, each with its JSON path; empty when it is valid.
    "validateConfig": NoInput => Vec<ConfigError> = |e, _| Ok(e.config_errors().to_vec());
    /// The flow the config runs (`bot-panel` or `stations`), the preset's when it names none.
    "flow": NoInput => OrRefusal<crate::core::config::Flow> = |e, _| with_config(e, |c| Ok(c.flow));
    /// The JSON Schema of `.github/prflow.json`.
    "configSchema": NoInput => Value = |_, _| {
        // Generated natively by scripts/build.sh and embedded, so schemars' code stays out of the Wasm.
        serde_json::from_str(include_str!("../schema/config.schema.json")).map_err(|e| e.to_string())
    };
    /// The rollup of a head commit's checks against the required contexts.
    "checkRollup": CheckRollupInput => crate::CheckRollup = |_, i| Ok(crate::check_rollup(&i.checks, &i.required_contexts));
    /// The stations flow's next job for a machine: `claim #N`, `wip-full n/w`, `queue-empty`, `fix #N` or `new-work`.
    "claim": ClaimInput => OrRefusal<stations::claim::ClaimResult> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| stations::claim::claim_after(&i.facts, c, &i.role, &i.machine, i.lost))
    };
    /// After the settle time, with the labels read back: does the machine keep its claim?
    "resolveClaimRace": ResolveClaimRaceInput => OrRefusal<stations::claim::RaceResult> = |e, i| {
        let took = match i.took_ms {
            None => None,
            Some(ms) if ms.is_finite() && ms >= 0.0 => Some(ms.ceil() as u64),
            Some(ms) => return Err(format!("$.tookMs: expected milliseconds, found {ms}")),
        };
        with_config(e, |c| Ok(stations::claim::resolve_claim_race_timed(&i.labels, &i.machine, i.number, c, took)))
    };
    /// The AI first pass's outcome: a COMMENT review, and `/changes` when its first line starts with BLOCKING.
    "stationReview": StationReviewInput => stations::review::ReviewOutcome = |_, i| Ok(stations::review::review_outcome(i.number, &i.head, &i.output));
    /// The validation gate's classify step for one pull request.
    "gateClassify": GateClassifyInput => OrRefusal<stations::gate::GateDecision> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| stations::gate::gate_classify(&i.facts, c, i.number))
    };
    /// The validation gate's report step: the machine's result for the commit it tested.
    "gateReport": GateReportInput => OrRefusal<stations::gate::GateDecision> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| stations::gate::gate_report(&i.facts, c, i.number, &i.tested_sha, &i.result))
    };
    /// The owners CODEOWNERS gives a path (the last matching rule's); empty when unowned.
    "codeOwners": CodeOwnersInput => Vec<String> = |_, i| Ok(queue::codeowners::code_owners(&i.codeowners, &i.path));
    /// The numbers a body's `Merge-After:` / `Start-After:` trailers name, outside fenced code.
    "parseTrailers": BodyInput => declare::Trailers = |_, i| Ok(declare::parse_trailers(&i.body));
    /// The issues a body closes with a closing keyword (`Fixes #12`), outside fenced code; never another repository's.
    "closingKeywords": BodyInput => Vec<u64> = |_, i| Ok(declare::closing_keywords(&i.body));
    /// The merge queue's triage of every open pull request, the pick order and the cycles.
    "triage": FactsInput => OrRefusal<triage::Report> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(queue::triage(&i.facts, c)))
    };
    /// The queue as a lane: what lands next, each one's position and estimated landing (from the CI
    /// times of recent landings), and today's landings with their CI runs.
    "lane": FactsInput => OrRefusal<queue::lane::Lane> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| {
            let ctx = queue::Ctx::new(&i.facts, c);
            Ok(queue::lane::lane(&ctx, &triage::triage(&ctx)))
        })
    };
    /// Each agent's record (its `from:` label, else the author): opened, landed, bounced, set aside, median time to land, CI minutes per landing, flakes.
    "scoreboard" [page]: FactsInput => OrRefusal<crate::views::scoreboard::Scoreboard> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(crate::views::scoreboard::scoreboard(&i.facts, c)))
    };
    /// The pull requests whose `builtOnBaseTip` triage reads: a reader asks git about these only.
    "tipReads": FactsInput => OrRefusal<Vec<u64>> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(queue::tip_reads(&i.facts, c)))
    };
    /// One poll of the watched pull request (the required contexts: the poll's and the config's): `continue` means poll again.
    "watchStep": WatchStepInput => OrRefusal<watch::Step> = |e, i| with_config(e, |c| Ok(watch::step(&i.poll, &i.state, c)));
    /// What the queue's reader must still fetch: issues, what blocks them, CODEOWNERS teams, branches to compare with the tip.
    "queueReads" [page]: FactsInput => OrRefusal<queue::reads::Reads> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(queue::reads::reads(&i.facts, c)))
    };
    /// Whether `by` may claim (or release) a set-aside pull request, and the comment to write.
    "claimPr": ClaimPrInput => OrRefusal<claim::ClaimDecision> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(claim::claim_pr(&queue::Ctx::new(&i.facts, c), i.number, &i.by, i.release)))
    };
    /// After `claimPr`'s comment is written and read back: who holds the claim, and what to say.
    "claimPrReadBack": ClaimPrInput => OrRefusal<claim::ClaimReadBack> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(claim::claim_pr_read_back(&queue::Ctx::new(&i.facts, c), i.number, &i.by, i.release)))
    };
    /// `open-pr`: the body with its Merge-After: trailer, the labels (skip-ci, auto-rebase on a layer, merge-queued, from:<machine>) and the ops.
    "openPr": OpenPrInput => OrRefusal<open::OpenPrDecision> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(open::open_pr(&queue::Ctx::new(&i.facts, c), &i.request)))
    };
    /// `push-fixed-pr`: skip-ci on before the push, the push leased at the claimed head, the claim resolved after.
    "pushFixedPr": PushFixedPrInput => OrRefusal<open::PushFixedDecision> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(open::push_fixed_pr(&queue::Ctx::new(&i.facts, c), &i.request)))
    };
    /// The fixer station's next set-aside pull request (its owner the fixer), how its worktree starts, and the claim to write.
    "fixerPick": FixerPickInput => OrRefusal<fixer::FixerPick> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(fixer::fixer_pick(&queue::Ctx::new(&i.facts, c), &i.name)))
    };
    /// The text the fixer's AI command reads on stdin.
    "fixerBrief": FixerBriefInput => String = |_, i| Ok(fixer::fixer_brief(&i.pick, &i.found));
    /// A fixer giving up: the claim released and a comment saying why.
    "fixerGiveUp": FixerGiveUpInput => OrRefusal<Vec<crate::core::plan::Op>> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(fixer::fixer_give_up(&queue::Ctx::new(&i.facts, c), i.number, &i.name, &i.why, &i.output)))
    };
    /// The issues `report-unowned` keeps: one per queued pull request whose owner is none.
    "unownedIssues": UnownedIssuesInput => OrRefusal<Vec<claim::UnownedIssue>> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(claim::unowned_issues(&queue::triage(&i.facts, c), &i.issues)))
    };
    /// Whether failed contexts are only a fixer's diff under `queue.autoFix`, and the commands that fix them.
    "autoFix": AutoFixInput => OrRefusal<autofix::AutoFix> = |e, i| with_config(e, |c| Ok(autofix::auto_fix(c.queue.auto_fix.as_ref(), &i.failed, i.commit_count)));
    /// The yield rule: the released pull request `mine` gives its turn back to, or null.
    "yieldsTo": YieldsToInput => Option<u64> = |_, i| Ok(order::yields_to(i.mine, &i.others));
    /// One worker per repository: whether this worker keeps, takes, renews or releases the queue's lease, or waits for its holder.
    "queueLease": queue::lease::LeaseInput => queue::lease::LeaseDecision = |_, i| queue::lease::lease(i);
    /// One step of the merge queue's cycle: the survey, the remembered state and the results of the
    /// ops the shell applied in; the next ops, the new state and what to wait for out.
    "cycleStep": queue::cycle::StepInput => OrRefusal<queue::cycle::StepOut> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| Ok(queue::cycle::step(i, c)))
    };
    /// The next chain: the queued pull requests it takes bottom up, kept apart where their changes collide, and its checkpoints (`queue.speculate`).
    "queueChain": QueueChainInput => OrRefusal<queue::chain::Chain> = |e, i| with_config(e, |c| {
        Ok(queue::chain::compose(&i.queue, &i.collisions, i.size.unwrap_or(c.queue.batch.max), c.queue.speculate))
    });
    /// A red checkpoint's flake verdict from evidence: `flake`, `real`, or `rerun` (the failed jobs once on the same head), with the reason.
    "flakeVerdict": queue::flake::FlakeInput => queue::flake::FlakeVerdict = |_, i| queue::flake::verdict(i);
    /// One step of bisection by prefixes: the green prefix to land, the pull request to test next, or the one to set aside and what to chain again.
    "bisectStep": queue::bisect::BisectInput => queue::bisect::BisectStep = |_, i| queue::bisect::step(i);
    /// The chain's size under `queue.batch` from the last landings' failures, and why.
    "batchSize": queue::sizing::Recent => OrRefusal<queue::sizing::BatchSize> = |e, i| with_config(e, |c| Ok(queue::sizing::batch_size(&c.queue, i)));
    /// Admission: whether a newly queued pull request is let in, or waits outside with `queue full: position N, estimated start HH:MM`.
    "admission": queue::sizing::AdmissionInput => OrRefusal<queue::sizing::Admission> = |e, i| with_config(e, |c| queue::sizing::admission(&c.queue, i));
    /// The review-stations simulation for one seed: waits by policy, the utilization sweep, the dev WIP limit.
    "simReview" [sim]: crate::sim::review::ReviewParams => crate::sim::review::ReviewReport = |_, i| crate::sim::review::review(i).map_err(|e| e.join("\n"));
    /// The merge-queue simulation for one seed: landings, CI runs and minutes per day by queue policy.
    "simQueue" [sim]: crate::sim::queue::QueueParams => crate::sim::queue::QueueReport = |_, i| crate::sim::queue::queue(i).map_err(|e| e.join("\n"));
    /// The review simulation's parameters with their defaults (what `prflow sim review --help` prints).
    "simReviewDefaults" [sim]: NoInput => crate::sim::review::ReviewParams = |_, _| Ok(Default::default());
    /// The queue simulation's parameters with their defaults.
    "simQueueDefaults" [sim]: NoInput => crate::sim::queue::QueueParams = |_, _| Ok(Default::default());
    /// Whether a review holds a pull request out of the queue.
    "reviewHold" (fixture): NumberInput => queue::review_hold::ReviewHold = |_, i| {
        checked(&i.facts)?;
        let pr = i.facts.pull_requests.iter().find(|p| p.number == i.number).ok_or(format!("$.number: #{} is not in facts.pullRequests", i.number))?;
        Ok(queue::review_hold::review_hold(&i.facts, pr))
    };
    /// Every open pull request's queue owner, by number.
    "owner" (fixture): FactsInput => OrRefusal<std::collections::BTreeMap<String, Option<queue::owner::OwnerVerdict>>> = |e, i| {
        checked(&i.facts)?;
        with_config(e, |c| {
            let ctx = queue::Ctx::new(&i.facts, c);
            Ok(std::collections::BTreeMap::from_iter(i.facts.pull_requests.iter().map(|p| (p.number.to_string(), queue::owner::queue_owner(&ctx, p)))))
        })
    };
    /// The queue's reading of a head commit's checks.
    "green" (fixture): GreenInput => queue::green::Green = |_, i| Ok(queue::green::green(&i.checks, &i.required));
    /// The pick order of candidates' keys.
    "order" (fixture): OrderInput => Vec<u64> = |_, i| {
        let mut keys = i.keys.clone();
        order::sort(&mut keys);
        Ok(keys.iter().map(|k| k.number).collect())
    };
    /// The set-aside comments' records, settled against the facts.
    "settle" (fixture): FactsInput => queue::setaside::Settlement = |_, i| {
        checked(&i.facts)?;
        Ok(queue::setaside::settle(&i.facts))
    };
    /// Whether a set-aside still applies to a head and base.
    "setAsideApplies" (fixture): SetAsideAppliesInput => bool = |_, i| Ok(queue::setaside::applies(&i.reason, &i.at_head, &i.at_base, &i.head, i.base_tip.as_deref()));
    /// A comment's queue marker, read.
    "marker" (fixture): BodyInput => Option<MarkerView> = |_, i| Ok(queue::markers::parse(&i.body).map(|m| MarkerView { kind: m.kind, fields: m.fields, retry_ticked: queue::markers::retry_ticked(&i.body) }));
    /// The set-aside comment's body.
    "setAsideComment" (fixture): SetAsideCommentInput => String = |_, i| Ok(queue::markers::set_aside_body(&i.reason, &i.head, &i.base, &i.detail, ""));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FACTS: &str = r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": 1, "author": "a", "labels": ["merge-queued"]}]}}"#;

    #[test]
    fn the_sweeps_board_lists_what_the_queue_lands_next() {
        // The lane is worked out by the decision (a flow reads no other flow): the board must carry it.
        let engine = Engine::new(r#"{"followup": {"board": {"enabled": true}}}"#);
        let facts = json!({"facts": {"now": "2026-11-30T12:00:00Z", "viewer": "prflow", "defaultBranch": "main", "pullRequests": [
            {"number": 1, "title": "queued one", "author": "a", "baseRef": "main", "headRef": "b1", "headSha": "h", "mergeStateStatus": "BEHIND", "labels": ["merge-queued", "skip-ci"]}
        ]}});
        let plan = engine.call_value("sweep", &facts).expect("sweep");
        let body = plan["ops"]
            .as_array()
            .expect("ops")
            .iter()
            .find(|o| o["op"] == "upsertBoard" || o.get("body").is_some())
            .and_then(|o| o["body"].as_str())
            .expect("a board op")
            .to_string();
        assert!(
            body.contains("### Merge queue: lands next (1)\n\n1. #1 queued one: 1st of 1"),
            "{body}"
        );
    }

    #[test]
    fn a_config_with_three_mistakes_keeps_all_three_with_their_paths() {
        let engine = Engine::new(r#"{"botPanel": {"bots": "bot-a"}, "colour": "red", "stale": {"days": -1}}"#);
        let mut paths: Vec<&str> = engine.config_errors().iter().map(|e| e.path.as_str()).collect();
        paths.sort();
        assert_eq!(paths, ["$.botPanel.bots", "$.colour", "$.stale.days"]);
    }

    #[test]
    fn a_bad_config_answers_every_config_decision_with_its_errors_and_no_writes() {
        let engine = Engine::new(r#"{"stale": {"days": "x"}}"#);
        let errors = serde_json::to_value(engine.config_errors()).unwrap();
        assert_eq!(errors[0]["path"], "$.stale.days");
        for name in ["reconcile", "sweep", "dashboard"] {
            let out = engine
                .call_value(name, &serde_json::from_str(FACTS).unwrap())
                .expect(name);
            assert_eq!(out["configErrors"], errors, "{name}");
            assert_eq!(
                out.get("ops").cloned().unwrap_or(json!([])),
                json!([]),
                "{name}: nothing to write"
            );
        }
        for name in ["triage", "tipReads", "owner", "unownedIssues"] {
            assert_eq!(
                engine
                    .call_value(name, &serde_json::from_str(FACTS).unwrap())
                    .expect(name),
                json!({ "configErrors": errors }),
                "{name}"
            );
        }
        assert_eq!(
            engine.call_value("labelCatalog", &json!({})).unwrap()["labels"],
            json!([])
        );
        assert_eq!(engine.call_value("validateConfig", &json!({})).unwrap(), errors);
        // A decision that reads no config answers as usual.
        assert_eq!(
            engine
                .call_value("closingKeywords", &json!({ "body": "Fixes #3" }))
                .unwrap(),
            json!([3])
        );
    }

    #[test]
    fn text_that_is_not_a_config_is_one_error_at_the_root_and_no_file_is_the_preset() {
        for (text, expected) in [
            ("", "JSON"),
            ("{\"stale\": ", "JSON"),
            ("null", "a JSON object"),
            ("[]", "a JSON object"),
        ] {
            let engine = Engine::new(text);
            let e = &engine.config_errors()[0];
            assert_eq!((e.path.as_str(), e.expected.as_str()), ("$", expected), "{text:?}");
        }
        assert!(Engine::preset().config_errors().is_empty());
        assert!(Engine::new("{}").config_errors().is_empty());
    }

    #[test]
    fn bad_input_names_the_decision_and_the_json_path() {
        let engine = Engine::preset();
        let cases = [
            (
                "reconcile",
                r#"{"facts": {"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "one"}]}}"#,
                "reconcile $.facts.pullRequests[0].number: ",
            ),
            (
                "reconcile",
                r#"{"facts": {"now": "soon"}}"#,
                "reconcile $.facts.now: expected an RFC 3339 time",
            ),
            (
                "watchStep",
                r#"{"poll": {}, "state": {}, "extra": true}"#,
                "watchStep $.extra: unknown field",
            ),
            ("parseTrailers", "[", "parseTrailers: the input is not valid JSON"),
            ("nope", "{}", "unknown decision \"nope\""),
        ];
        for (name, input, want) in cases {
            let got = engine.call(name, input).expect_err(name);
            assert!(got.starts_with(want), "{name}: {got:?} should start with {want:?}");
        }
    }

    #[test]
    fn the_flow_is_the_configs_or_the_presets() {
        assert_eq!(
            Engine::preset().call_value("flow", &json!({})).unwrap(),
            json!("bot-panel")
        );
        assert_eq!(
            Engine::new(r#"{"flow": "stations"}"#)
                .call_value("flow", &json!({}))
                .unwrap(),
            json!("stations")
        );
        let bad = Engine::new(r#"{"flow": "kanban"}"#)
            .call_value("flow", &json!({}))
            .unwrap();
        assert_eq!(bad["configErrors"][0]["path"], "$.flow");
    }

    #[test]
    fn every_decision_has_a_unique_name_and_both_schemas() {
        let schemas = decision_schemas();
        let all = names();
        let mut names = all.clone();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "a name is used twice");
        for name in all {
            assert!(
                schemas[name]["input"].is_object() && schemas[name]["output"].is_object(),
                "{name}"
            );
            assert!(
                !schemas[name]["doc"].as_str().unwrap().is_empty(),
                "{name} has no doc line"
            );
        }
    }
}
