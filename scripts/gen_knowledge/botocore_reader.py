"""Reader of the botocore service API models: a type's create, read and setter operations and their members."""
import gzip
import html
import json
import re
import zipfile


# --------------------------------------------------------------------------
# botocore (API models)
# --------------------------------------------------------------------------


def strip_html(s):
    s = re.sub(r"<code>(.*?)</code>", r"`\1`", s or "", flags=re.S)
    s = re.sub(r"</p>|<br/?>|</li>", "\n", s)
    s = re.sub(r"<[^>]+>", "", s)
    return html.unescape(s)


class Botocore:
    def __init__(self, wheel, operations=None):
        self.models = {}
        self.namespace_models = {}
        self.create_ops = {}
        z = zipfile.ZipFile(wheel)
        latest = {}
        for n in z.namelist():
            m = re.match(r"botocore/data/([^/]+)/([^/]+)/service-2\.json(\.gz)?$", n)
            if m and (m.group(1) not in latest or m.group(2) > latest[m.group(1)][0]):
                latest[m.group(1)] = (m.group(2), n)
        aliases = []
        for svc, (_, n) in sorted(latest.items()):
            raw = z.read(n)
            if n.endswith(".gz"):
                raw = gzip.decompress(raw)
            model = json.loads(raw)
            # A service's own directory name wins over another service's
            # alias: DocumentDB and Neptune share RDS's endpoint prefix `rds`,
            # and their models must never answer for AWS::RDS::*.
            self.models[svc.lower().replace("-", "")] = model
            for k in ("serviceId", "endpointPrefix", "serviceAbbreviation"):
                v = model["metadata"].get(k)
                if v:
                    aliases.append((re.sub(r"[^a-z0-9]", "", v.lower()), model))
        for k, model in aliases:
            self.models.setdefault(k, model)
        if operations:
            self.load_operations(operations)

    def load_operations(self, path):
        """Reads scripts/data/api-operations.json: the models of namespaces
        whose names differ, the create operations of irregular types. Fails
        on an entry the pinned models do not hold (a stale table)."""
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
        for ns, e in table["services"].items():
            keys = [m.lower().replace("-", "") for m in e["models"]]
            missing = [m for m, k in zip(e["models"], keys) if k not in self.models]
            if missing:
                raise SystemExit(f"{path}: {ns}: no botocore model {missing}")
            self.namespace_models[ns] = keys
        for t, e in table["createOperations"].items():
            op = e["operation"]
            if not any(op in m["operations"] for m in self.models_for(t)):
                raise SystemExit(f"{path}: {t}: no operation {op} in its models")
            self.create_ops[t] = op

    def models_for(self, cfn_type):
        """The API models that may hold a type's operations: the namespace's
        own (by name, serviceId or endpoint prefix), then the table's."""
        ns = cfn_type.rsplit("::", 1)[0]
        own = self.models.get(re.sub(r"[^a-z0-9]", "", ns.split("::")[1].lower()))
        out = [own] if own else []
        for k in self.namespace_models.get(ns, []):
            if self.models[k] not in out:
                out.append(self.models[k])
        return out

    def create_op(self, cfn_type):
        """(model, operation) creating a type: the table's operation, else
        Create<Name>, Put<Name> or Register<Name> (the model may spell the
        name in another case: CreateVpc for AWS::EC2::VPC)."""
        name = cfn_type.rsplit("::", 1)[1]
        table_op = self.create_ops.get(cfn_type)
        for model in self.models_for(cfn_type):
            ops = model["operations"]
            if table_op:
                if table_op in ops:
                    return model, ops[table_op]
                continue
            for verb in ("Create", "Put", "Register"):
                want = (verb + name).lower()
                op = next((o for k, o in ops.items() if k.lower() == want), None)
                if op:
                    return model, op
        return None

    def home_model(self, cfn_type):
        """The model holding a type's create operation, else its namespace's."""
        found = self.create_op(cfn_type)
        if found:
            return found[0]
        models = self.models_for(cfn_type)
        return models[0] if models else None

    def create_input(self, cfn_type):
        """(model, input shape) of the operation creating a type."""
        found = self.create_op(cfn_type)
        if not found or "input" not in found[1]:
            return None
        model, op = found
        return model, model["shapes"].get(op["input"]["shape"])

    # Verbs of operations that write a resource's stored configuration; a
    # Delete/Describe/Get/List member documents the request ("If you omit
    # this, the default event bus is used" for DeleteRule), a Restore or
    # another Create makes a different resource (a replica inherits from its
    # source).
    WRITE_VERBS = ("Put", "Update", "Modify", "Set")

    def setters(self, cfn_type):
        """[(op name, model, input shape, property or None)] of the other
        operations that write a type: `<Verb>...<Name>...` (its input's
        members are the type's properties: PutFunctionRecursionConfig's
        `RecursiveLoop`), and `<Verb><Property>` (its input is that
        property's block: PutRuntimeManagementConfig's `UpdateRuntimeOn`
        for `RuntimeManagementConfig.UpdateRuntimeOn`), keyed by the
        property (None: the type itself)."""
        name = cfn_type.rsplit("::", 1)[1]
        model = self.home_model(cfn_type)
        if not model:
            return []
        out = []
        for op_name, op in sorted(model["operations"].items()):
            verb = next((v for v in self.WRITE_VERBS if op_name.startswith(v)), None)
            if verb is None or "input" not in op:
                continue
            shape = model["shapes"].get(op["input"]["shape"])
            rest = op_name[len(verb):]
            out.append((op_name, model, shape, rest if name not in rest else None))
        return out

    def read_output(self, cfn_type):
        """(model, shape) describing one resource in the answer of the
        operation that reads a type (Get<Name>, Describe<Name>,
        Describe<Name>s): the output itself, or its one member holding the
        resource (`DBInstances` -> `DBInstance`, `Table`)."""
        name = cfn_type.rsplit("::", 1)[1]
        model = self.home_model(cfn_type)
        if not model:
            return None
        by_lower = {k.lower(): o for k, o in model["operations"].items()}
        for op_name in ("Get" + name, "Describe" + name, "Describe" + name + "s"):
            op = by_lower.get(op_name.lower())
            if not op or "output" not in op:
                continue
            out = model["shapes"].get(op["output"]["shape"]) or {}
            members = out.get("members") or {}
            for k in (name, name + "s", name + "Description", name + "Detail"):
                m = next((v for mk, v in members.items() if mk.lower() == k.lower()), None)
                if m is None:
                    continue
                shape = model["shapes"].get(m["shape"]) or {}
                if shape.get("type") == "list":
                    shape = model["shapes"].get(shape["member"]["shape"]) or {}
                if shape.get("type") == "structure":
                    return model, shape
            return model, out
        return None

    @staticmethod
    def member(model, shape, name):
        """The member of a structure matching a CloudFormation property name."""
        if not shape:
            return None, None
        if shape.get("type") in ("list", "map"):
            inner = shape["member"] if shape.get("type") == "list" else shape["value"]
            shape = model["shapes"].get(inner["shape"])
            if name == "*":
                return {"documentation": ""}, shape
        if not shape or shape.get("type") != "structure":
            return None, None
        members = shape.get("members", {})
        # A list CloudFormation names for what it holds (`VPCSecurityGroups`)
        # where the API names the ids it takes (`VpcSecurityGroupIds`).
        spellings = [name] + ([name[:-1] + "Ids", name[:-1] + "Arns"] if name.endswith("s") else [])
        for want in spellings:
            for k, m in members.items():
                if k.lower() == want.lower():
                    target = model["shapes"].get(m["shape"])
                    if not m.get("documentation") and (target or {}).get("documentation"):
                        # A member without text of its own is documented by
                        # its shape, as the SDKs render it ("By default,
                        # ObjectOwnership is set to BucketOwnerEnforced").
                        m = dict(m, documentation=target["documentation"])
                    return m, target
        return None, None


    @staticmethod
    def member_at(op, path):
        """The member at a CloudFormation path of an operation's (model,
        input or output shape), or None."""
        model, shape = op
        member = None
        for seg in path.split("."):
            member, shape = Botocore.member(model, shape, seg)
            if member is None:
                return None
        return member

    @staticmethod
    def deprecated_aliases(shape):
        """{deprecated member: its replacement}: a member the model marks
        deprecated whose documentation is, word for word, that of exactly
        one other (current) member of the same structure."""
        members = (shape or {}).get("members") or {}
        # "[Deprecated] The destination in Amazon S3. ..." marks a member
        # deprecated in its text where the model sets no flag (Firehose).
        marker = re.compile(r"^\s*\[deprecated\]\s*", re.I)

        def deprecated(m):
            return m.get("deprecated") or marker.match(strip_html(m.get("documentation") or ""))

        def text(m):
            t = marker.sub("", strip_html(m.get("documentation") or "")).lower()
            t = re.sub(r"\b(?:the|a|an)\b", " ", t)
            return " ".join(re.findall(r"[a-z0-9]+", t))

        out = {}
        for name, m in members.items():
            if not deprecated(m) or not text(m):
                continue
            same = [n for n, o in members.items() if n != name and not deprecated(o) and text(o) == text(m)]
            if len(same) == 1:
                out[name] = same[0]
        return out

    def shape_at(self, create, path):
        """The API-model shape at a CloudFormation path, from the create input."""
        if not create:
            return None
        model, shape = create
        for seg in path.split(".") if path else []:
            member, shape = Botocore.member(model, shape, seg)
            if member is None:
                return None
        return shape


def api_enum(boto, create, path):
    """The enum of the API-model member at a CloudFormation path, else None.
    A top-level property CloudFormation lifts out of an options structure
    (TransitGateway `DnsSupport` is the create input's `Options.DnsSupport`)
    is found there when exactly one structure member of the input holds it."""
    shape = boto.shape_at(create, path)
    if shape is None and create:
        # Config's `PutConfigRule` takes the whole rule as `ConfigRule`: a
        # nested path is found under that one structure too.
        head = path.split(".")[0]
        lifted = [
            m for m in (boto.shape_at(create, k) for k in create[1].get("members", {}))
            if m and m.get("type") == "structure"
            and Botocore.member(create[0], m, head)[0] is not None
        ]
        if len(lifted) == 1:
            shape = boto.shape_at((create[0], lifted[0]), path)
    if shape and shape.get("type") == "list":
        shape = boto.shape_at(create, path + ".*")
    e = (shape or {}).get("enum")
    return list(e) if isinstance(e, list) else None
