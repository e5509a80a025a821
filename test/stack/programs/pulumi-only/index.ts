import * as pulumi from '@pulumi/pulumi';

// `stacktest:count` dynamic resources whose provider answers at once and calls nothing: the
// fleet bench's measure of what Pulumi itself (CLI, language host, program, provider process,
// state backend) costs for as many resources as the fleet declares.
const provider: pulumi.dynamic.ResourceProvider = {
  create: async (inputs) => ({ id: String(inputs.name), outs: inputs }),
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string) {
    super(provider, name, { name }, {}, 'stacktest', 'Noop');
  }
}

const count = new pulumi.Config().getNumber('count') ?? 1;
export const ids = Array.from({ length: count }, (_, i) => new Noop(`r${i}`).id);
