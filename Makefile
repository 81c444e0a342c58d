# Two commands do everything: `make lecture` and `make test`.
# Each one first runs scripts/setup.sh, which installs what is missing
# (system packages, .venv) and returns at once when all is in place.

PY := .venv/bin/python
# QUALITY=medium overrides the lecture file's quality (common/default_lecture.toml).
QUALITY ?=

.PHONY: setup lecture test lint data clean bench bench-voiced fresh-check

setup:
	@bash scripts/setup.sh

lecture: setup
	$(PY) render.py $(if $(QUALITY),--quality $(QUALITY))

test: setup
	$(PY) -m pytest -n 2 --dist loadgroup --no-loadscope-reorder

lint: setup
	$(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m deptry .

data: setup
	$(PY) -m model --out out/data.json

clean:
	rm -rf out media

# bench: the silent benchmark against plain Manim, then where the voiced lecture's time
# goes, cold and cached (bench-voiced: that alone). Each is long: tens of minutes at 1080p.
bench: setup
	$(PY) bench/render_bench.py
	$(PY) bench/profile_lecture.py

bench-voiced: setup
	$(PY) bench/profile_lecture.py

# Both README commands on a bare Debian 12 tree (debootstrap), from the committed
# HEAD. Root only; many minutes; run before calling a set-up change done.
fresh-check:
	@bash scripts/fresh_check.sh
