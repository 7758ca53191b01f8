// The Site module.
