// The one sanitizer of text prflow prints in a terminal: titles, reasons and warnings come from
// anyone who can open a pull request, and an ESC sequence in them would drive the reader's terminal
// (colours, cursor moves, a rewritten line, a hyperlink), a NUL cut the line short.

// C0 controls but tab and newline, DEL, and C1 (U+0080–U+009F: a lone U+009B is a CSI on some terminals).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BREAKS = /[\t\n]/g;
// Bidirectional controls (embeddings, overrides, isolates, marks): a U+202E in a title reverses what
// follows it on the screen. Shown as their code points instead.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with its control characters removed and its bidirectional controls shown as `<U+202E>`; tab and newline are kept (multi-line text). */
export function plainText(text) {
  return String(text ?? "")
    .replace(CONTROLS, "")
    .replace(BIDI, (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

/** `text` as one line: control characters removed, tabs and line breaks made spaces. */
export function oneLine(text) {
  return plainText(text).replace(BREAKS, " ");
}
