// Loads battleline_lab/widgets/board/*.js as anywidget does: the file's text as one ES module
// (no bundler; its named exports are the pure parts the tests call).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FOLDER = new URL("../../battleline_lab/widgets/board/", import.meta.url);

/** One of the front end's modules (board.js, keys.js), imported from its text. */
export async function loadModule(name) {
  const source = readFileSync(new URL(name, FOLDER), "utf8");
  return import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
}

export const loadBoard = () => loadModule("board.js");

export const tapCases = () => JSON.parse(readFileSync(new URL("../data/tap_cases.json", import.meta.url), "utf8"));
