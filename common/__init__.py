"""What every room uses: atomic writes, one-line messages for bad files, the import closure
digest, the settings object and the built-in lecture file. Imports nothing of ours."""
