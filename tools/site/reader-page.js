// A lesson's reading page (read/NAME.html): draw its saved widgets, with no kernel behind them.
import { start } from "./reader.js";

start();
