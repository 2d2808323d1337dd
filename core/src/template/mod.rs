//! CloudFormation templates: parsing (JSON/YAML) and fail-closed intrinsic resolution.
