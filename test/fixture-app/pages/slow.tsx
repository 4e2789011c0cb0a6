// The product's /slow without its edge cache: the tests' slow page streams on every visit, so
// browser tests can watch its section (and a client navigation's progress bar) arrive late.
export { default, loader, title } from "../../../src/app/pages/slow";
