"""AWS::S3::Bucket sub-configurations whose CloudFormation shape differs from
the S3 API's: notifications and replication. Pure conversions, both ways."""

# CloudFormation list key -> (S3 API list key, destination key in CFN, in the API).
_NOTIFICATION_KINDS = (
    ("TopicConfigurations", "TopicConfigurations", "Topic", "TopicArn"),
    ("QueueConfigurations", "QueueConfigurations", "Queue", "QueueArn"),
    ("LambdaConfigurations", "LambdaFunctionConfigurations", "Function", "LambdaFunctionArn"),
)


def notification_from_api(resp: dict):
    """The CloudFormation NotificationConfiguration of a GetBucketNotificationConfiguration
    answer, or None when the bucket has none. As Cloud Control reports it: one
    entry per event, all three lists present (empty when unused), and
    EventBridgeConfiguration only when enabled."""
    has_any = any(resp.get(api) for _, api, _, _ in _NOTIFICATION_KINDS)
    eventbridge = "EventBridgeConfiguration" in resp
    if not has_any and not eventbridge:
        return None
    out = {}
    for cfn, api, cfn_dest, api_dest in _NOTIFICATION_KINDS:
        entries = []
        for config in resp.get(api, []):
            rules = config.get("Filter", {}).get("Key", {}).get("FilterRules", [])
            for event in config.get("Events", []):
                entry = {"Event": event, cfn_dest: config[api_dest]}
                if rules:
                    entry["Filter"] = {"S3Key": {"Rules": [{"Name": r["Name"], "Value": r["Value"]} for r in rules]}}
                entries.append(entry)
        out[cfn] = entries
    if eventbridge:
        out["EventBridgeConfiguration"] = {"EventBridgeEnabled": True}
    return out


def notification_to_api(config) -> dict:
    """The PutBucketNotificationConfiguration body for a CloudFormation
    NotificationConfiguration (None or {} clears every notification)."""
    config = config or {}
    out = {}
    for cfn, api, cfn_dest, api_dest in _NOTIFICATION_KINDS:
        entries = []
        for entry in config.get(cfn, []):
            item = {api_dest: entry[cfn_dest], "Events": [entry["Event"]]}
            rules = entry.get("Filter", {}).get("S3Key", {}).get("Rules")
            if rules:
                item["Filter"] = {"Key": {"FilterRules": [{"Name": r["Name"], "Value": r["Value"]} for r in rules]}}
            entries.append(item)
        if entries:
            out[api] = entries
    if config.get("EventBridgeConfiguration", {}).get("EventBridgeEnabled"):
        out["EventBridgeConfiguration"] = {}
    return out


def _filter_from_api(flt: dict) -> dict:
    # The API's Tag / And.Tags are CloudFormation's TagFilter / And.TagFilters.
    out = {}
    if "Prefix" in flt:
        out["Prefix"] = flt["Prefix"]
    if "Tag" in flt:
        out["TagFilter"] = dict(flt["Tag"])
    if "And" in flt:
        both = {}
        if "Prefix" in flt["And"]:
            both["Prefix"] = flt["And"]["Prefix"]
        if "Tags" in flt["And"]:
            both["TagFilters"] = [dict(t) for t in flt["And"]["Tags"]]
        out["And"] = both
    return out


def _filter_to_api(flt: dict) -> dict:
    out = {}
    if "Prefix" in flt:
        out["Prefix"] = flt["Prefix"]
    if "TagFilter" in flt:
        out["Tag"] = dict(flt["TagFilter"])
    if "And" in flt:
        both = {}
        if "Prefix" in flt["And"]:
            both["Prefix"] = flt["And"]["Prefix"]
        if "TagFilters" in flt["And"]:
            both["Tags"] = [dict(t) for t in flt["And"]["TagFilters"]]
        out["And"] = both
    return out


# Rule keys with the same name and shape in both (Destination's sub-keys too).
_SAME_RULE_KEYS = ("Priority", "Status", "Prefix", "Destination", "DeleteMarkerReplication", "SourceSelectionCriteria")


def replication_from_api(config: dict) -> dict:
    """The CloudFormation ReplicationConfiguration of a GetBucketReplication answer."""
    rules = []
    for rule in config.get("Rules", []):
        out = {k: rule[k] for k in _SAME_RULE_KEYS if k in rule}
        if "ID" in rule:
            out["Id"] = rule["ID"]
        if "Filter" in rule:
            out["Filter"] = _filter_from_api(rule["Filter"])
        rules.append(out)
    return {"Role": config["Role"], "Rules": rules}


def replication_to_api(config: dict) -> dict:
    """The PutBucketReplication body for a CloudFormation ReplicationConfiguration."""
    rules = []
    for rule in config.get("Rules", []):
        out = {k: rule[k] for k in _SAME_RULE_KEYS if k in rule}
        if "Id" in rule:
            out["ID"] = rule["Id"]
        if "Filter" in rule:
            out["Filter"] = _filter_to_api(rule["Filter"])
        rules.append(out)
    return {"Role": config["Role"], "Rules": rules}
