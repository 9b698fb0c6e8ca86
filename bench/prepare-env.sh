# Sourced by bench/prepare-*.sh: moves to the checkout's root and sets what
# they share: `dev` (.devrun/, what travels to the GPU machine), `shared`
# (../shared, or PARACC_SHARED), `py` (the venv's python) and `paracc` (the
# compiler to use, build/bin/paracc or PARACC).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
dev=.devrun
shared="${PARACC_SHARED:-$root/../shared}"
py=.venv/bin/python
paracc=${PARACC:-build/bin/paracc}
