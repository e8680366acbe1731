// Runs Python files under real MicroPython (the WebAssembly port, from npm) in Node.
//
// Usage: node run.mjs PACKAGE_DIR SCRIPT [DIR...]
// Every *.py in each DIR is copied into MicroPython's in-memory file system at /fw,
// which goes first on sys.path; SCRIPT is then run as __main__. What the script
// writes to stdout is passed through byte for byte (no line buffering), so protocol
// lines reach the test exactly as the hub would send them. A Python exception is
// printed to stderr and ends the process with status 1.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, script, ...dirs] = process.argv.slice(2);
const entry = pathToFileURL(resolve(packageDir, "micropython.mjs")).href;
const { loadMicroPython } = await import(entry);

const mp = await loadMicroPython({
  linebuffer: false,
  stdout: (bytes) => process.stdout.write(bytes),
  stderr: (bytes) => process.stderr.write(bytes),
});
mp.FS.mkdir("/fw");
for (const dir of dirs) {
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".py")) {
      mp.FS.writeFile("/fw/" + name, readFileSync(join(dir, name)));
    }
  }
}
const source = readFileSync(script, "utf8");
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\n");
  mp.globals.set("__name__", "__main__");
  mp.runPython(source);
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exitCode = 1;
}
