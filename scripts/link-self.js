// Makes `require('pulumi-svc/...')` resolve inside this checkout, as it does for an installed copy.
// The serialized dynamic providers load their runtime by package name from the program's directory,
// so the demo, the examples and the stack tests need node_modules/pulumi-svc to point here.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const link = path.join(root, 'node_modules', 'pulumi-svc');
if (!fs.existsSync(path.join(root, 'node_modules'))) process.exit(0);
try {
  if (fs.readlinkSync(link) === '..') process.exit(0);
} catch {
  // absent or not a link: (re)create it below
}
fs.rmSync(link, { recursive: true, force: true });
fs.symlinkSync('..', link, 'dir');
