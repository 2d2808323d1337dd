"""Patch: moto's RDS backend serves the DocumentDB API (same endpoint, same
query protocol, signing name "rds") but refuses Engine "docdb" on
CreateDBCluster and CreateDBInstance.

Gap: moto 5.1.22 checks the engine against a fixed enum
(``ClusterEngine``: aurora-mysql, aurora-postgresql, mysql, neptune,
postgres), so no DocumentDB cluster or instance can be created, and its
per-engine defaults (version, port, parameter group) have no docdb entry.

The patch admits "docdb" and, where the caller gives none, DocumentDB's
defaults: engine version 5.0.0, port 27017 (DocumentDB's MongoDB port),
storage type "standard" (CreateDBCluster API reference, StorageType), no
automatic minor upgrades (AWS::DocDB::DBInstance AutoMinorVersionUpgrade,
"Default: false") and the engine version's default cluster parameter group
(DocumentDB developer guide, "Creating Amazon DocumentDB cluster parameter
groups": default.docdb5.0,
https://docs.aws.amazon.com/documentdb/latest/developerguide/db-cluster-parameter-group-create.html).
A template that names these gets what it names. Describe, Modify and Delete
are moto's own: they do not look at the engine."""

from moto.rds import models as rds_models
from moto.rds import utils as rds_utils

ENGINE = "docdb"
#: DocumentDB's current major version, used when a create names none.
DEFAULT_VERSION = "5.0.0"
DEFAULT_PORT = 27017
#: CreateDBCluster StorageType: "Default value is standard".
DEFAULT_STORAGE_TYPE = "standard"


def _parameter_group(version: str) -> str:
    """The default cluster parameter group of an engine version (5.0.0 -> default.docdb5.0)."""
    major_minor = ".".join(version.split(".")[:2])
    return f"default.docdb{major_minor}"


def _admit_engine() -> None:
    clusters = rds_utils.ClusterEngine.list_cluster_engines.__func__
    instances = rds_utils.DbInstanceEngine.valid_db_instance_engine.__func__
    rds_utils.ClusterEngine.list_cluster_engines = classmethod(lambda cls: sorted(clusters(cls) + [ENGINE]))
    rds_utils.DbInstanceEngine.valid_db_instance_engine = classmethod(lambda cls: sorted(instances(cls) + [ENGINE]))


def _default(cls, name: str, value) -> None:
    """Wrap a per-engine static default so docdb answers ``value``."""
    original = getattr(cls, name)

    def default(*args, **kwargs):
        engine = kwargs.get("engine", args[0] if args else None)
        return value if engine == ENGINE else original(*args, **kwargs)

    setattr(cls, name, staticmethod(default))


def _cluster_defaults() -> None:
    # moto gives every non-neptune cluster "default.aurora8.0" and gp2 storage.
    original = rds_models.DBCluster.__init__

    def init(self, backend, *args, **kwargs):
        original(self, backend, *args, **kwargs)
        if self.engine != ENGINE:
            return
        if not kwargs.get("db_cluster_parameter_group_name"):
            self.parameter_group = _parameter_group(self.engine_version)
        if not kwargs.get("storage_type"):
            self.storage_type = DEFAULT_STORAGE_TYPE

    rds_models.DBCluster.__init__ = init


def _instance_defaults() -> None:
    # moto turns automatic minor upgrades on unless told otherwise.
    original = rds_models.DBInstance.__init__

    def init(self, backend, *args, **kwargs):
        original(self, backend, *args, **kwargs)
        if self.engine == ENGINE and kwargs.get("auto_minor_version_upgrade") is None:
            self.auto_minor_version_upgrade = False

    rds_models.DBInstance.__init__ = init


def install() -> None:
    """Admit the docdb engine with its defaults."""
    _admit_engine()
    _default(rds_models.DBCluster, "default_engine_version", DEFAULT_VERSION)
    _default(rds_models.DBCluster, "default_port", DEFAULT_PORT)
    # DocumentDB storage grows on its own; no allocated size is answered.
    _default(rds_models.DBCluster, "default_allocated_storage", 1)
    _default(rds_models.DBInstance, "default_port", DEFAULT_PORT)
    _default(rds_models.DBInstance, "default_allocated_storage", 0)
    _cluster_defaults()
    _instance_defaults()
