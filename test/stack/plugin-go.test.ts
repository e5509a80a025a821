import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { hasTag, previewBilling, writeCalls } from './cli';
import { goEnv, goMissing } from './go-env';
import { exampleProject, fixtureGroup } from './projects';
import { KINDS_VALUES, assertPropertyKinds, kindsConfig } from './property-kinds';

const run = promisify(execFile);
const SDK_MODULE = 'github.com/pulumi-svc/pulumi-svc/sdk';

/** Every property kind set, and the typed getVirtualGuest result read (property-kinds.ts). */
const KINDS_PROGRAM = `package main

import (
	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		admin, err := svc.NewSshKey(ctx, "admin", &svc.SshKeyArgs{
			Label:     pulumi.String("admin"),
			PublicKey: pulumi.String(conf.Require("publicKey")),
		})
		if err != nil {
			return err
		}
		web, err := svc.NewVirtualGuest(ctx, "web", &svc.VirtualGuestArgs{
			Hostname:                     pulumi.String("${KINDS_VALUES.hostname}"),
			Domain:                       pulumi.String("example.com"),
			Datacenter:                   pulumi.String("dal10"),
			StartCpus:                    pulumi.Int(${KINDS_VALUES.startCpus}),
			MaxMemory:                    pulumi.Int(${KINDS_VALUES.maxMemory}),
			HourlyBillingFlag:            pulumi.Bool(false),
			OperatingSystemReferenceCode: pulumi.String("UBUNTU_LATEST"),
			SshKeyIds:                    pulumi.IntArray{admin.KeyId},
			Tags:                         pulumi.StringArray{pulumi.String("kinds"), pulumi.String(conf.Require("tag"))},
			UserData:                     pulumi.ToSecret(pulumi.String(${JSON.stringify(KINDS_VALUES.userData)})).(pulumi.StringOutput),
			OnImageChange:                svc.ImageChangeReload,
		})
		if err != nil {
			return err
		}
		found := svc.LookupVirtualGuestOutput(ctx, svc.LookupVirtualGuestOutputArgs{Id: web.GuestId})
		ctx.Export("guestId", web.GuestId)
		ctx.Export("keyId", admin.KeyId)
		ctx.Export("userData", web.UserData)
		ctx.Export("onImageChange", web.OnImageChange)
		ctx.Export("foundId", found.Id())
		ctx.Export("foundHostname", found.Hostname())
		ctx.Export("foundCpus", found.StartCpus())
		ctx.Export("foundHourly", found.HourlyBillingFlag())
		ctx.Export("foundKeyIds", found.SshKeyIds())
		ctx.Export("foundTags", found.Tags())
		ctx.Export("foundMonthlyCost", found.EstimatedMonthlyCost())
		return nil
	})
}
`;

// The Go example (examples/go-guest) through the CLI and the Go language host, on the provider
// plugin, with the Go SDK generated from the plugin's schema (sdk/go/svc) by its module path: the
// example's go.mod replaces the module with the checkout's sdk/ folder, as a user's would.
describe('a Go program on the provider plugin', { skip: goMissing }, () => {
  const group = fixtureGroup();
  let env: Record<string, string>;
  before(async () => (env = await goEnv()));
  after(() => group.close());

  /** The go-guest example (its main.go replaced by `main`) on this checkout's SDK. */
  const goProject = async (main?: string) => {
    const dir = exampleProject('go-guest', main ? { 'main.go': main } : {});
    await run('go', ['mod', 'edit', `-replace=${SDK_MODULE}=${path.join(PACKAGE_ROOT, 'sdk')}`], {
      cwd: dir,
      env: { ...process.env, ...env },
    });
    return dir;
  };

  it('sets every kind of property (sshKeyIds from a key) and reads the typed LookupVirtualGuest result', async () => {
    const f = await group.fixture(await goProject(KINDS_PROGRAM), {
      env,
      config: kindsConfig('go-guest', 'go'),
    });
    await assertPropertyKinds(f, 'go');
  });

  it('one guest and two lookups: up, a no-op up, an upgrade previewed with its billing line, destroy', async () => {
    const f = await group.fixture(await goProject(), { env });
    await f.stack.up();
    const [guest, ...others] = await f.guests(hasTag('go-guest'));
    assert.equal(others.length, 0, 'one guest ordered');
    assert.deepEqual(await f.stateIds('VirtualGuest'), [`${guest.id}`]);
    const outputs = await f.stack.outputs();
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'GetAccount invoked');
    assert.equal(outputs.guestId, guest.id);
    assert.equal(outputs.address, guest.primaryIpAddress);
    assert.equal(outputs.foundHostname, guest.hostname, 'LookupVirtualGuest by the guest id');

    await f.stack.up(['--expect-no-changes']);

    await f.stack.setConfig({ 'go-guest:cpus': { value: '2' } });
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(
      changes.map((c) => [c.op, c.name]),
      [['upgrade', 'web']],
    );
    assert.match(messages, /BILLING upgrade VirtualGuest "web" in place \(startCpus 1 -> 2/);
    await f.stack.up();
    const upgraded = await f.guests(hasTag('go-guest'));
    assert.deepEqual(
      upgraded.map((g) => [g.id, g.startCpus ?? g.maxCpu]),
      [[guest.id, 2]],
      'the same guest, upgraded in place',
    );
    assert.deepEqual(await f.stateIds('VirtualGuest'), [`${guest.id}`]);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'one order in all');

    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag('go-guest')), []);
    assert.deepEqual(await f.stateIds('VirtualGuest'), []);
  });
});
