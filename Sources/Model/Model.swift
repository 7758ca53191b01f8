// The Model module.
