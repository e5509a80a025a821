import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { yamlOnPlugin } from './plugin-project';
import { exampleProject, fixtureGroup } from './projects';
import { assertPropertyKinds, kindsConfig } from './property-kinds';

const group = fixtureGroup();
after(() => group.close());

it('the yaml-guest example sets every kind of property and reads the typed getVirtualGuest result', async () => {
  // The example as a user copies it, with this checkout's plugin named in place of a release's.
  const dir = exampleProject('yaml-guest');
  const yaml = path.join(dir, 'Pulumi.yaml');
  const program = fs.readFileSync(yaml, 'utf8').replace(/^name: .*\nruntime: yaml\n/, '');
  fs.writeFileSync(yaml, [...yamlOnPlugin('yaml-guest'), program].join('\n'));
  const f = await group.fixture(dir, { config: kindsConfig('yaml-guest', 'yaml') });
  await assertPropertyKinds(f, 'yaml');
});
