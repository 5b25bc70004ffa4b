"""JSON Schemas (draft 2020-12) for every kind of davinci YAML file."""
