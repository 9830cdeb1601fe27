// The engine for the CLI: the package's Node adapter (pkg/ loaded at import), the same binding the Action uses.
import * as engine from "../js/node.js";

export { engine };
