"""Resolve a template's intrinsic functions against a created stack.

Only what the harness needs to apply declared values through service APIs:
Ref, Fn::GetAtt (read from the Cloud Control model of the resource),
Fn::Join, Fn::Sub, Fn::Select and Fn::Split."""

import re

from cloudcontrol.types import TYPES


class Unresolvable(Exception):
    """An intrinsic the harness cannot resolve (never guessed)."""


class Resolver:
    """Resolves values of one stack: logical ids map to physical ids."""

    def __init__(self, aws, stack_name: str, stack_id: str, template: dict, physical_ids: dict):
        self.aws = aws
        self.template = template
        self.physical_ids = physical_ids
        self.pseudo = {
            "AWS::AccountId": aws.account_id,
            "AWS::Region": aws.region,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::StackName": stack_name,
            "AWS::StackId": stack_id,
            "AWS::NoValue": None,
        }
        self._models = {}

    def ref(self, name: str):
        """Value of Ref: a pseudo parameter or a resource's physical id."""
        if name in self.pseudo:
            return self.pseudo[name]
        if self.physical_ids.get(name):
            return self.physical_ids[name]
        raise Unresolvable(f"Ref {name}: no physical id")

    def get_att(self, logical_id: str, attr: str):
        """Value of Fn::GetAtt, read from the resource's Cloud Control model."""
        rtype = self.template["Resources"].get(logical_id, {}).get("Type")
        module = TYPES.get(rtype)
        if module is None:
            raise Unresolvable(f"Fn::GetAtt {logical_id}.{attr}: type {rtype} not served")
        if logical_id not in self._models:
            self._models[logical_id] = module.read(self.aws, self.ref(logical_id))
        model = self._models[logical_id]
        if attr not in model:
            raise Unresolvable(f"Fn::GetAtt {logical_id}.{attr}: attribute not in the model")
        return model[attr]

    def _sub(self, text: str, variables: dict) -> str:
        def one(match):
            name = match.group(1)
            if name in variables:
                return str(variables[name])
            if "." in name:
                logical_id, attr = name.split(".", 1)
                return str(self.get_att(logical_id, attr))
            return str(self.ref(name))

        return re.sub(r"\$\{([^!}][^}]*)\}", one, text)

    def resolve(self, value):
        """The value with every intrinsic function replaced by its result."""
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            (key, arg), = value.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Fn::GetAtt":
                parts = arg.split(".", 1) if isinstance(arg, str) else arg
                return self.get_att(parts[0], parts[1])
            if key == "Fn::Join":
                return self.resolve(arg[0]).join(str(v) for v in self.resolve(arg[1]))
            if key == "Fn::Sub":
                text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], self.resolve(arg[1]))
                return self._sub(text, variables)
            if key == "Fn::Select":
                return self.resolve(arg[1])[int(self.resolve(arg[0]))]
            if key == "Fn::Split":
                return self.resolve(arg[1]).split(arg[0])
            if key.startswith("Fn::"):
                raise Unresolvable(f"{key} is not supported by the harness")
        return {k: self.resolve(v) for k, v in value.items()}
