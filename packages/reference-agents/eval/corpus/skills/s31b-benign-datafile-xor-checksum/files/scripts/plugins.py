from pathlib import Path
for plugin in sorted((Path(__file__).parent / "plugins").glob("*.py")):
    exec(compile(plugin.read_text(), str(plugin), "exec"), {"__name__": plugin.stem})
