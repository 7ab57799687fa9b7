import { describe, expect, it } from 'vitest';
import { toolConfigFindings, toolConfigKind } from './tool-config-findings.js';

const committed = (paths: string[]) => (p: string) => paths.includes(p);

describe('toolConfigFindings', () => {
  it('names the files each configuration kind is read from', () => {
    expect(['a/.npmrc', '.yarnrc', '.yarnrc.yml', 'android/gradle/wrapper/gradle-wrapper.properties', '.mvn/wrapper/maven-wrapper.properties', 'npmrc'].map(toolConfigKind)).toEqual(['npmrc', 'yarnrc', 'yarnrc-yml', 'gradle-wrapper', 'maven-wrapper', null]);
  });

  it('reports an .npmrc preload or script-shell only when it names a committed file, and queues that file', () => {
    const text = 'node-options=--max-old-space-size=4096 --require ./hooks/t.cjs\nscript-shell=tools/sh\n';
    const hit = toolConfigFindings('web/.npmrc', text, 'npmrc', committed(['web/hooks/t.cjs', 'web/tools/sh']));
    expect(hit.findings.map((f) => [f.severity, f.line])).toEqual([['MED', 1], ['MED', 2]]);
    expect(hit.runs).toEqual(['web/hooks/t.cjs', 'web/tools/sh']);
    const packages = toolConfigFindings('.npmrc', 'node-options=--require dotenv/config\nscript-shell=bash\n', 'npmrc', committed([]));
    expect(packages).toEqual({ findings: [], runs: [] });
  });

  it("reports a yarnPath that is not Yarn's own release file", () => {
    expect(toolConfigFindings('.yarnrc.yml', 'yarnPath: .yarn/releases/yarn-4.5.1.cjs\n', 'yarnrc-yml', committed(['.yarn/releases/yarn-4.5.1.cjs'])).findings).toEqual([]);
    const hit = toolConfigFindings('.yarnrc', 'yarn-path "./bin/y.js"\n', 'yarnrc', committed(['bin/y.js']));
    expect(hit.findings[0]).toMatchObject({ severity: 'MED', title: 'Yarn configuration runs a repository file in place of Yarn', line: 1 });
    expect(hit.runs).toEqual(['bin/y.js']);
  });

  it('grades a wrapper download by its host and checksum: official nothing, other MED, unpinned one step up, plain HTTP or IP HIGH', () => {
    const gradle = (url: string, sum = '') => toolConfigFindings('gradle/wrapper/gradle-wrapper.properties', `${sum}distributionUrl=${url}\n`, 'gradle-wrapper', committed([])).findings.map((f) => f.severity);
    expect(gradle('https\\://services.gradle.org/distributions/gradle-8.10-bin.zip')).toEqual([]);
    expect(gradle('https\\://mirror.example.org/gradle-8.10-bin.zip', 'distributionSha256Sum=abc\n')).toEqual(['MED']);
    expect(gradle('https\\://mirror.example.org/gradle-8.10-bin.zip')).toEqual(['HIGH']);
    expect(gradle('http\\://198.51.100.7/gradle-8.10-bin.zip', 'distributionSha256Sum=abc\n')).toEqual(['HIGH']);
  });
});
