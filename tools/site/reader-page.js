// A lesson's reading page (read/NAME.html): draw its saved widgets, with no kernel behind them;
// then the cells that need Python come alive by themselves (live.js: nothing starts on a page
// whose widgets all answer from their saved state).
import { start, renderWidget } from "./reader.js";
import { launchPage, startPage } from "./live.js";

const launched = launchPage(); // Python boots in its worker while the saved widgets are drawn
start();
startPage(renderWidget, launched);
