// The engine for the CLI: the package's Node adapter (pkg/ loaded at import), the same binding the
// Action uses. `prflow.createEngine(configText)` builds the engine a command asks.
import * as prflow from "../js/node.js";

export { prflow };
