module.exports = {
  name: '@acme/plugin-foreach',
  factory: function (require) {
    const { BaseCommand } = require('@yarnpkg/cli');
    const { scriptUtils } = require('@yarnpkg/core');
    class ForeachCommand extends BaseCommand {
      async execute() {
        for (const ws of this.context.project?.workspaces ?? []) {
          await scriptUtils.executeWorkspaceScript(ws, 'build', [], { cwd: ws.cwd, stdin: this.context.stdin, stdout: this.context.stdout, stderr: this.context.stderr });
        }
        return 0;
      }
    }
    ForeachCommand.paths = [['foreach-build']];
    return { commands: [ForeachCommand] };
  },
};
