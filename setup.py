"""Build step the declarative pyproject.toml cannot say: the playbook's data into the package.

The notebooks, the Voila template and the rulings pages stay at the top of the source tree
(`notebooks/`, `templates/`, `docs/rules/`); a built distribution carries them as data of the
`playbook` package, where `playbook.resources` reads them. MANIFEST.in puts them in the sdist.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: the package's data folder -> the source tree's folder, and the files of it to ship.
DATA = {
    "notebooks": ("notebooks", ["*.ipynb"]),
    "templates": ("templates", ["voila/templates/playbook/**/*", "kernels/python3/*"]),
    "rulings": ("docs/rules", ["*.md"]),
}


class BuildWithData(build_py):
    """`build_py`, then the data folders copied into the built `playbook` package and the
    catalogs compiled beside their `.po` (the `.mo` files are built, never committed)."""

    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("i18n", "locales").glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parts[2])
            target = Path(self.build_lib, po.with_suffix(".mo"))
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as compiled:
                write_mo(compiled, catalog, use_fuzzy=False)
        for name, (source, patterns) in DATA.items():
            for pattern in patterns:
                for path in sorted(Path(source).glob(pattern)):
                    if path.is_file():
                        target = Path(self.build_lib, "playbook", name, path.relative_to(source))
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(path, target)


setup(cmdclass={"build_py": BuildWithData})
