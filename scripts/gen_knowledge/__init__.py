"""

Modules, one job each (a new source is one new module beside docs and
api_model, called from generate):
  registry         readers of the registry schemas (snapshot, service spec).
  botocore_reader  reader of the botocore API models.
  rules            the sentence rules every text source shares: what states
                   a default, a condition, a value of the property's type.
  facts            the collected findings (Mined) and one type's and one
                   property's inputs (TypeFacts, PropFacts).
  blocks           a default stated on a block, applied to its member.
  schema           mining the registry schema (source `schema`).
  docs             mining the CloudFormation documentation (source `docs`).
  api_model        mining the API models (source `api-model`).
  generate         every source, in order, per type and property.
  refute           dropping mined defaults a real deploy contradicts.
  writer           writing core/data/generated/ and its MANIFEST.
"""

# Re-exported for the probes that reuse the generator's readers and rules
# (scripts/replay_gaps.py, scripts/provider_docs_probe.py).
from .botocore_reader import Botocore  # noqa: F401
from .registry import Spec, kind_of  # noqa: F401
from .rules import stated_default  # noqa: F401
