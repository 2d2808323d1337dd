"""The sentence rules every text source shares: which sentence states a default, under which condition, with a value of the property's type."""
import json
import re

from .registry import kind_of, schema_node_at


# --------------------------------------------------------------------------
# Sentences that state a default
# --------------------------------------------------------------------------

NUM = r"-?[0-9]{1,3}(?:,[0-9]{3})+|-?[0-9]+(?:\.[0-9]+)?"
# A bare token never ends in the sentence's full stop ("The default value
# is S3.").
VALUE = r"(?P<v>``[^`]+``|`[^`]+`|\"[^\"]+\"|'[^']+'|" + NUM + r"|[A-Za-z0-9_:/+-](?:[A-Za-z0-9_.:/+-]*[A-Za-z0-9_:/+-])?)"
# "50%" is a percentage: only for a property whose name says so (`pct`);
# "100% of the On-Demand price" names what it is a percentage of.
UNIT = r"(?:\s+(?P<unit>[A-Za-z]+(?:\s+per\s+second)?)|(?P<pct>%)(?:\s+of\s+the\s+[A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,3})?)?"
# What may follow the value: nothing, a parenthetical, "or <the same in other
# units>", or ", but ..." - never a condition.
# ", which sends requests to targets using HTTP/1.1" only explains the value;
# so does ", and the topic passes through the tracing header it receives"
# (what the default does; a condition word still rejects the tail).
TAIL = r"(?P<tail>(?:\s+by\s+default,?\s+if\s+no\s+value\s+is\s+(?:specified|provided)|,?\s+(?:and\s+)?the\s+(?:minimum|maximum)\s+is\s+[^.]*|\s+and\s+[A-Za-z]+\s+(?:is|are)\s+(?:enabled|disabled)|\s*,\s*and\s+(?:the|it)\s+[^.]*|\s*\([^)]*\)|\s+or\s+[^.]*|,\s*but\s+[^.]*|(?:\s*\([^)]*\))?\s*,\s*which\s+(?:[^.]|\.(?=\S))*|\s+by\s+default|,?\s+if\s+(?:(?:no\s+value\s+is|a\s+value\s+(?:isn't|is\s+not)|not|nothing\s+is)\s+(?:provided|specified)|omitted)|\s+when\s+not\s+(?:set|specified|provided))?)\s*\.?$"
DEFAULT_PREFIXES = [
    r"^\*?default(?:\s+value)?\*?\s*:\s*",
    # "The default setting is `false` ." (CodeBuild PrivilegedMode).
    # "If the parameter is not specified, the default state is `enabled`."
    # "If the `IsActive` field isn't specified, the default is true." (Lex;
    # `own` must be this property).
    # "If this field is not set, the default value is 300." (API Gateway
    # authorizer TTL).
    # "If the parameter is not specified in the request, the default state
    # is `optional`." (Auto Scaling launch configuration).
    r"^(?:if\s+(?:the|this)\s+(?:`(?P<own>[A-Za-z0-9]+)`\s+)?(?:field|property|parameter)\s+(?:is\s+not|isn't)\s+(?:specified|set)(?:\s+in\s+the\s+request)?,\s+)?"
    r"(?:the\s+)?default(?:\s+value|\s+setting|\s+state|\s+behaviou?r)?(?:\s+(?:for|of)\s+this\s+(?:parameter|property|setting))?\s+is\s+",
    # "If no network mode is specified, the default is `bridge`." (ECS;
    # the noun must spell the property).
    r"^if\s+no\s+(?P<subj>(?!value\b)[a-z][a-z ]{1,40}?)\s+is\s+(?:specified|provided),\s+the\s+default\s+is\s+",
    # "If a `TlsSessionResumptionMode` value is not specified during
    # `CreateServer`, it is set to `ENFORCED` by default." (`own` must be
    # this property).
    r"^if\s+an?\s+`(?P<own>[A-Za-z0-9]+)`\s+value\s+is\s+not\s+specified(?:\s+during\s+`[A-Za-z]+`)?\s*,\s+it\s+is\s+set\s+to\s+(?=`[^`]+`\s+by\s+default\s*\.?$)",
    # "If you don't specify a status, it defaults to `ENABLED`." (Image
    # Builder) / "If the subdirectory isn't specified, it will default to
    # `/` ." (DataSync; the noun must spell the property).
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+an?\s+(?P<subj>[a-z][a-z ]{1,40}?),\s+it\s+defaults\s+to\s+",
    r"^if\s+the\s+(?P<subj>[a-z][a-z ]{1,40}?)\s+(?:isn't|is\s+not)\s+specified,\s+it\s+will\s+default\s+to\s+",
    # "When `certificateMode` is not provided, it defaults to `DEFAULT`."
    # (IoT; `own` must be this property).
    r"^when\s+`(?P<own>[A-Za-z0-9]+)`\s+is\s+not\s+(?:provided|specified),\s+it\s+defaults\s+to\s+",
    # "This property is set to `NO_PROTECTION` by default." (GameLift; a
    # quoted value only).
    r"^this\s+(?:property|parameter|setting)\s+is\s+set\s+to\s+(?=`[^`]+`\s+by\s+default\s*\.?$)",
    # "By default, `NodeJsVersion` is `10.x`." (GameLift; `own` must be
    # this property; a quoted value only).
    r"^by\s+default,?\s+`(?P<own>[A-Za-z][A-Za-z0-9]+)`\s+is\s+(?=`[^`]+`\s*\.?$)",
    # "When not specified, the default is `host`." (Batch ECS task
    # properties) / "If you leave this field empty, the default value is
    # 100% of the On-Demand price." (Batch spot bid).
    r"^(?:when\s+not\s+specified|if\s+you\s+leave\s+this\s+(?:field|parameter|property)\s+empty),\s+the\s+default(?:\s+value)?\s+is\s+",
    # "If unspecified, the default value will be 8." (FSx).
    # "In requests, if this value is not provided, the default value will be
    # 3600." (IAM Roles Anywhere).
    r"^(?:in\s+requests,\s+)?if\s+(?:unspecified|not\s+specified|omitted|this\s+value\s+is\s+not\s+provided),\s+the\s+default\s+value\s+will\s+be\s+",
    # "The default and minimal value is 4." (Route 53 Resolver).
    r"^the\s+default\s+and\s+minim(?:al|um)\s+value\s+is\s+",
    # "If you don't specify this field, the global table consistency mode
    # defaults to `EVENTUAL`." (DynamoDB; "this field" is the property; a
    # quoted value only).
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+this\s+(?:field|property|parameter),\s+the\s+(?:[a-z]+\s+){1,5}?defaults\s+to\s+(?=`)",
    # "If you do not specify a value, Spot Fleet defaults to `lowestPrice`."
    # (the service named, then the value; a quoted value only).
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+a\s+value,\s+(?:aws\s+|amazon\s+)?(?:[a-z0-9]+\s+){1,3}?defaults\s+to\s+(?=`)",
    # "If you do not select a number, the default is 5." (Config
    # remediation; a number for a numeric property only: `number`).
    r"^if\s+you\s+(?:don't|do\s+not)\s+(?:select|specify)\s+a\s+(?P<number>number),\s+the\s+default\s+is\s+",
    # "If you do not specifiy a percentage, the default is 50%." (the
    # noun is a part of the property's name: `part`; the text's spelling).
    r"^if\s+you\s+(?:don't|do\s+not)\s+(?:select|specify|specifiy)\s+a\s+(?P<part>[a-z]+),\s+the\s+default\s+is\s+",
    # "Acceptable values are between 1 and 1440, and the default value is
    # 60." / "Valid values are 60 - 3600, the default value is 3600
    # seconds." / "You can allocate from 2 to 100 DPUs; the default is 10."
    # (the property's range, then its default).
    r"^(?:(?:acceptable|valid)\s+values\s+are\s+(?:between\s+)?[0-9,.]+\s*(?:-|–|and|to)\s*[0-9,.]+\s*,\s+(?:and\s+)?"
    r"|you\s+can\s+allocate\s+from\s+[0-9,.]+\s+to\s+[0-9,.]+\s+[A-Za-z]+\s*;\s+)the\s+default(?:\s+value)?\s+is\s+",
    # "Default: If not specified, the default value is 1." (Neptune
    # Analytics).
    r"^default\s*:\s*if\s+not\s+specified,\s+the\s+default\s+value\s+is\s+",
    # "By default Amazon GameLift Servers sets this value to `4.0.2`." (a
    # quoted value only).
    r"^by\s+default,?\s+(?:aws\s+|amazon\s+)?(?:[a-z0-9]+\s+){1,4}?sets\s+this\s+(?:value|property|parameter)\s+to\s+(?=`)",
    # "By default, Amazon EC2 Auto Scaling specifies `units` , which
    # translates into number of instances." (a quoted value only).
    r"^by\s+default,?\s+(?:aws\s+|amazon\s+)?(?:[a-z0-9]+\s+){1,4}?specifies\s+(?=`)",
    # "If no value is entered, the default lease time is 140 seconds." /
    # "Default format is `json`." / "The default chunk size is 1,024 MiB
    # (1 GiB) ..." (the words are the last words of the property's name:
    # `ending`).
    r"^(?:if\s+no\s+value\s+is\s+entered,\s+)?(?:the\s+)?default\s+(?P<ending>(?!value\b|setting\b|state\b|behaviou?r\b)[a-z]+(?:\s+[a-z]+){0,2}?)\s+is\s+",
    # "The default `BorrowLimit` is -1, which indicates unlimited
    # borrowing." (`own` must be this property).
    r"^the\s+default\s+`(?P<own>[A-Za-z0-9]+)`\s+is\s+",
    # "If not specified, the default format is `CSV`." (the noun is a word
    # of the property's name, `Formats`; a quoted value only).
    r"^if\s+not\s+specified,\s+the\s+default\s+(?P<part>[a-z]+)\s+is\s+(?=`)",
    # "The name defaults to `prod`." (a `...Name` property; a quoted value
    # only).
    r"^the\s+(?P<part>name)\s+defaults\s+to\s+(?=`)",
    # "By default, rotation is set to 60 seconds." (the word is a word of
    # the property's name: `KeyRotationIntervalSeconds`).
    r"^by\s+default,?\s+(?P<part>[a-z]+)\s+is\s+set\s+to\s+",
    # "The default for `RotateImmediatelyOnUpdate` is `true`." (`own` must
    # be this property).
    r"^the\s+default\s+for\s+`(?P<own>[A-Za-z0-9]+)`\s+is\s+",
    # "The default path is `/`." (VPC Lattice; the noun must spell the
    # property; a quoted value only).
    r"^the\s+default\s+(?P<subj>(?!value\b|setting\b|state\b)[a-z][a-z ]{0,30}?)\s+is\s+(?=`)",
    # "If no value is specified in the request, the value is set to
    # `REGIONAL` by default." (a quoted value only).
    r"^if\s+no\s+value\s+is\s+specified\s+in\s+the\s+request,\s+the\s+value\s+is\s+set\s+to\s+(?=`[^`]+`\s+by\s+default\s*\.?$)",
    # "Replication overwrite protection is `ENABLED` by default." (the
    # words must spell the property; a quoted value only).
    r"^(?P<subj>[a-z][a-z ]{1,60}?)\s+is\s+(?=`[^`]+`\s+by\s+default\s*\.?$)",
    # "Defaults to 0 if not specified." / "If not specified, defaults to
    # ENTITY_TYPE." / "It defaults to 10."
    r"^(?:if\s+(?:not\s+(?:specified|provided)|omitted),\s+)?(?:(?:this\s+(?:property|parameter|value|setting)|it)\s+)?defaults?\s+to\s+",
    # "By default this is set to false." (SMS Voice DeletionProtectionEnabled).
    r"^by\s+default,?\s+(?:this(?:\s+(?:value|property|parameter|setting))?\s+is\s+(?:set\s+to\s+)?|the\s+value\s+is\s+)",
    # "By default, ObjectOwnership is set to BucketOwnerEnforced and ACLs are
    # disabled." (S3; the name must be this property).
    r"^by\s+default,?\s+`?(?P<own>[A-Z][A-Za-z0-9]+)`?\s+is\s+set\s+to\s+",
    # "Set to `true` by default, if no value is specified." (Amazon MQ):
    # the tail must say "by default" and may name only the unset value.
    r"^set\s+to\s+(?=\S+\s+by\s+default(?:,?\s+if\s+no\s+value\s+is\s+(?:specified|provided))?\s*\.?$)",

    r"^if\s+no\s+value\s+is\s+provided,\s+(?:the\s+value|it)\s+will\s+default\s+to\s+",
    r"^if\s+no\s+value\s+is\s+provided,\s+the\s+[a-z ]{1,40}\s+will\s+be\s+set\s+to\s+",
    # "If you omit this, the unit is set as `None`." (CloudWatch Logs metric
    # transformation; the noun must be the property's name: `own`).
    r"^if\s+you\s+omit\s+this,\s+the\s+(?P<own>[a-z]+)\s+is\s+set\s+(?:as|to)\s+",
    # "If no value is specified, the default is `UNCOMPRESSED`." / "If you
    # don't specify a value for `RequestInterval`, the default value is `30`
    # seconds." (the named property must be this one: `own`).
    r"^if\s+(?:not\s+specified|omitted|unspecified|no\s+value\s+is\s+(?:specified|provided)|"
    # "If you omit this, the default is `false`." (CloudWatch Logs).
    r"(?:this|the)\s+(?:property|parameter|field|value)\s+(?:is\s+(?:omitted|not\s+specified)|isn't\s+specified)|you\s+omit\s+this(?:\s+(?:field|property|parameter|value))?|"
    # "If you don't supply a value, the default is `ENTERPRISE_EDITION`."
    # (Kendra).
    r"you\s+(?:don't|do\s+not)\s+(?:specify|supply)\s+(?:(?:a\s+value\s+for\s+)?`(?P<own>[A-Za-z0-9]+)`|a\s+value|this\s+(?:property|parameter|value)|one))\s*,?\s+"
    # "If not specified, the default port used is `8182`."
    r"(?:the\s+default(?:\s+value)?(?:\s+[a-z]+\s+used)?\s+is|(?:it|this\s+(?:property|parameter|value))\s+defaults\s+to|the\s+value\s+defaults\s+to|"
    r"aws\s+cloudformation\s+uses\s+the\s+default\s+value\s+of)\s+",
]
# "The default value is infinite (-1)." / "If it is not included, it
# defaults to a slash (/)." (the literal in parentheses, taken as quoted;
# tried before the general prefixes, which would take the word).
LITERAL_IN_PARENS = re.compile(
    r"^(?:the\s+default(?:\s+value)?\s+is|if\s+it\s+is\s+not\s+included,\s+it\s+defaults\s+to)\s+(?:an?\s+)?[a-z]+\s+\((?P<v>-?[0-9]+|/)\)(?P<tail>)\s*\.?$",
    re.I,
)
DEFAULT_SENTENCES = [LITERAL_IN_PARENS] + [re.compile(p + VALUE + UNIT + TAIL, re.I) for p in DEFAULT_PREFIXES] + [
    # "If you do not specify a health check grace period value, the default
    # value of 0 is used." / "..., the default value of one hour is applied."
    re.compile(
        r"^(?:if\s+you\s+(?:don't|do\s+not)\s+specify\s+[^,]{1,80},\s+|if\s+you\s+omit\s+this(?:\s+(?:field|property|parameter))?,\s+"
        # "If the parameter is not specified, the default value of 30
        # seconds is used."
        r"|if\s+the\s+(?:field|property|parameter)\s+(?:is\s+not|isn't)\s+specified,\s+"
        # "If no deployment controller is specified, the default value of
        # `ECS` is used." / "If this parameter is omitted, the default
        # setting of `MUTABLE` will be used which will allow image tags to
        # be overwritten." (`subj` must name this property).
        r"|if\s+no\s+value\s+is\s+(?:specified|provided),\s+"
        r"|if\s+no\s+(?P<subj>(?!value\b)[a-z][a-z ]{1,40}?)\s+is\s+specified,\s+|if\s+this\s+(?:field|property|parameter)\s+is\s+omitted,\s+"
        # "If the `swappiness` parameter isn't specified, a default value of
        # `60` is used." (`own` must be this property).
        r"|if\s+(?:the\s+)?`(?P<own>[A-Za-z0-9]+)`(?:\s+(?:field|property|parameter))?\s+(?:isn't|is\s+not)\s+specified,\s+)?"
        # "If you omit this parameter, the default behavior of `missing` is
        # used." (CloudWatch alarm `TreatMissingData`).
        r"(?:the|a)\s+default(?:\s+value|\s+setting|\s+behaviou?r)?\s+of\s+"
        + VALUE + UNIT + r"\s+(?:is|will\s+be)\s+(?:used|applied)(?P<tail>,?\s+which\s+[^.]*)?\s*\.?$",
        re.I,
    ),
    # "Short polling is used as the default or when you specify 0 for this
    # property.": the default behaves as the stated value.
    re.compile(
        r"^[a-z][a-z ]{1,40}\s+is\s+used\s+as\s+the\s+default\s+or\s+when\s+you\s+specify\s+"
        + VALUE + UNIT + r"\s+for\s+this\s+(?:property|parameter)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "`EC2` is the default health check and cannot be disabled." /
    # "`CodeDeployDefault.OneAtATime` is the default deployment
    # configuration." (a quoted value only).
    re.compile(
        r"^(?P<v>`[^`]+`)\s+is\s+the\s+default(?:\s+[a-z]+){0,2}(?P<tail>\s+and\s+cannot\s+be\s+(?:disabled|changed))?\s*\.?$",
        re.I,
    ),
    # "- `BUFFERED` – This is the default option." / "`IPV4` – ( the
    # default ) The DB cluster uses only IPv4 addresses for communication."
    re.compile(
        r"^(?P<v>`[^`]+`)\s*[-–:]\s*(?:\(\s*the\s+default\s*\)|this\s+is\s+the\s+default(?:\s+(?:option|value|setting|mode))?\s*\.)(?P<tail>)",
        re.I,
    ),
    # "If you don't specify a value, Amplify uses the `STANDARD_8GB`
    # default." / "If you don't specify a runtime, AWS Deadline Cloud uses
    # `latest` as the default." (the words must spell the property).
    re.compile(
        r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+(?:a\s+value|an?\s+(?P<subj>[a-z][a-z ]{0,40}?)),\s+(?:the\s+)?[A-Z][A-Za-z0-9 ]{0,40}?"
        r"\s+uses\s+(?:the\s+)?" + VALUE + r"(?:\s+as\s+the\s+default|\s+default)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "This sets it to its default ( `true` )." (Auto Scaling `ReturnData`).
    re.compile(r"^this\s+sets\s+it\s+to\s+its\s+default\s*\(\s*" + VALUE + r"\s*\)(?P<tail>)\s*\.?$", re.I),
    # "This is `ENABLED` by default." / "The `STANDARD` option is selected
    # by default if no value is specified."
    re.compile(r"^(?:this|it)\s+is\s+" + VALUE + r"\s+by\s+default(?P<tail>)\s*\.?$", re.I),
    re.compile(
        r"^the\s+(?P<v>`[^`]+`)\s+(?:option|value|setting|mode)\s+is\s+(?:selected|used)\s+by\s+default"
        r"(?P<tail>\s+if\s+no\s+value\s+is\s+(?:specified|provided))?\s*\.?$",
        re.I,
    ),
    # "When the `JobMode` field is missing or null, `SCRIPT` is assigned as
    # the default value." (`own` must be this property).
    re.compile(
        r"^when\s+the\s+`(?P<own>[A-Za-z0-9]+)`\s+(?:field|property|parameter)\s+is\s+missing(?:\s+or\s+null)?,\s+"
        r"(?P<v>`[^`]+`)\s+is\s+(?:assigned|used)\s+as\s+the\s+default(?:\s+value)?(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "A compute environment must be created in the `ENABLED` state." on
    # `State`: every new resource starts in that state (`own` must be this
    # property).
    re.compile(
        r"^an?\s+[a-z][a-z ]{1,40}?\s+must\s+be\s+created\s+in\s+the\s+(?P<v>`[^`]+`)\s+(?P<own>state)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "If one isn't specified, the `LATEST` platform version is used by
    # default." (a quoted value only).
    re.compile(
        r"^if\s+one\s+(?:isn't|is\s+not)\s+specified,\s+the\s+(?P<v>`[^`]+`)\s+(?:[a-z]+\s+){1,3}is\s+used(?P<tail>\s+by\s+default)?\s*\.?$",
        re.I,
    ),
    # "If not specified, `Default` is used." / "If you don't specify a
    # value, `ipv4` is used by default."
    re.compile(
        r"^if\s+(?:not\s+specified|omitted|unspecified|you\s+(?:don't|do\s+not)\s+specify\s+a\s+value),\s+(?P<v>`[^`]+`)\s+is\s+used(?P<tail>\s+by\s+default)?\s*\.?$",
        re.I,
    ),
    # "If you don't specify a priority, the service uses the default value
    # 0." (`subj` must name this property).
    re.compile(
        r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+an?\s+(?P<subj>[a-z][a-z ]{1,40}?),\s+the\s+service\s+uses\s+the\s+default\s+value\s+"
        + VALUE + r"(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "For most scenarios, it is recommended to use the default protection
    # level, `ACTIVE_UNDER_DDOS`." (a quoted value naming the default).
    re.compile(
        r"^(?:for\s+most\s+scenarios,\s+)?it\s+is\s+recommended\s+to\s+use\s+the\s+default\s+[a-z]+(?:\s+[a-z]+)?,\s+(?P<v>`[^`]+`)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "If this option is set to `UPDATE` or is unspecified, CodeDeploy
    # initiates ..." / "If set to `false` or omitted, the canary will be
    # updated directly ..." (the stated value and no value behave alike).
    re.compile(
        r"^if\s+(?:this\s+(?:option|property|parameter|value|field|setting)\s+is\s+)?(?:set\s+to\s+)?(?P<v>`[^`]+`|false|true)\s+or\s+(?:is\s+)?"
        r"(?:unspecified|not\s+specified|omitted)(?P<tail>,\s+[^.]*)\s*\.?$",
        re.I,
    ),
    # "If you don't specify `DefaultAuthScheme` or specify this parameter as
    # `NONE`, you must specify the `Auth` option." (no value and the stated
    # one behave alike; `own` must be this property).
    re.compile(
        r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+`(?P<own>[A-Za-z0-9]+)`\s+or\s+specify\s+this\s+(?:parameter|property)\s+as\s+(?P<v>`[^`]+`)"
        r"(?P<tail>,\s+[^.]*)\s*\.?$",
        re.I,
    ),
    # "This is set to `DEFAULT` orchestration type, by default." (Bedrock
    # agent `OrchestrationType`: the noun is the property's own).
    re.compile(r"^this\s+is\s+set\s+to\s+(?P<v>`[^`]+`)(?:\s+[a-z]+){0,3},?\s+by\s+default(?P<tail>)\s*\.?$", re.I),
    # "When you use `create-service` or `update-service`, the default is
    # `DISABLED`." (ECS `AssignPublicIp`: the API calls CloudFormation
    # makes).
    re.compile(
        r"^when\s+you\s+use\s+`create-[a-z-]+`(?:\s+or\s+`update-[a-z-]+`)?,\s+the\s+default\s+is\s+" + VALUE + UNIT + TAIL,
        re.I,
    ),
    # "By default, Lambda sets your function's configuration to
    # `Terminate`." (the service sets the property's own configuration; a
    # quoted value only).
    re.compile(
        r"^by\s+default,?\s+(?:aws\s+|amazon\s+)?[a-z0-9]+\s+sets\s+(?:your|the)\s+[a-z' ]{1,40}?\b(?:configuration|setting|value)\s+to\s+(?P<v>`[^`]+`)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "The time zone, UTC by default, in either the Country/City format, or
    # the UTC offset format." (Amazon MQ; the noun must spell the property).
    re.compile(r"^the\s+(?P<subj>[a-z][a-z ]{1,40}?),\s+" + VALUE + r"\s+by\s+default,\s+(?P<tail>)[^.]*\.?$", re.I),
    # "If a time zone is not provided, UTC is used by default." (Auto
    # Scaling; the noun must spell the property).
    re.compile(
        r"^if\s+an?\s+(?P<subj>[a-z][a-z ]{1,40}?)\s+is\s+not\s+(?:provided|specified),\s+" + VALUE
        + r"\s+is\s+used(?:\s+by\s+default)?(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "If you do not specify an `IpAddressType`, it defaults to select
    # IPv4." (App Runner; `own` must be this property).
    re.compile(
        r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+an?\s+`(?P<own>[A-Za-z0-9]+)`\s*,\s+it\s+defaults\s+to\s+select\s+" + VALUE + TAIL,
        re.I,
    ),
    # "The possible values are `UNCOMPRESSED`, `SNAPPY`, and `GZIP`, with
    # the default being `SNAPPY`." (a quoted value only).
    re.compile(r"^the\s+possible\s+values\s+are\s+[^.]*?,\s+with\s+the\s+default\s+being\s+(?P<v>`[^`]+`)(?P<tail>)\s*\.?$", re.I),
    # "The default, `STITCHED_ONLY`, forces all player sessions to use
    # stitched ad insertion." / "`RollbackCapacityChange`, the default,
    # ignores the capacity change ..." (a quoted value only).
    re.compile(r"^the\s+default,\s+(?P<v>`[^`]+`),\s+(?P<tail>)[^.]*\.?$", re.I),
    re.compile(r"^(?P<v>`[^`]+`),\s+the\s+default,\s+(?P<tail>)[^.]*\.?$", re.I),
    # "For new services, if a desired count is not specified, a default
    # value of `1` is used." (ECS; the words must spell the property).
    re.compile(
        r"^(?:for\s+new\s+[a-z]+,\s+)?if\s+an?\s+(?P<subj>[a-z][a-z ]{1,40}?)\s+is\s+not\s+specified,\s+a\s+default\s+value\s+of\s+"
        + VALUE + UNIT + r"\s+is\s+used(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "If no value is specified, the `xfs` filesystem type is used by
    # default." (ECS; the noun must spell the property).
    re.compile(
        r"^if\s+no\s+value\s+is\s+(?:specified|provided),\s+the\s+(?P<v>`[^`]+`)\s+(?P<subj>[a-z][a-z ]{1,40}?)\s+is\s+used\s+by\s+default(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "If the name isn't specified, the default name " `Default` " is
    # used." (the noun twice, a word of the property's name).
    re.compile(
        r"^if\s+the\s+(?P<part>[a-z]+)\s+(?:isn't|is\s+not)\s+specified,\s+the\s+default\s+(?P=part)\s+" + VALUE + r"\s+is\s+used(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "When this value is not provided, this defaults to the `INSERT`
    # operation." (AppFlow `WriteOperationType`; the noun is a word of the
    # property's name: `part`).
    re.compile(
        r"^when\s+this\s+value\s+is\s+not\s+(?:provided|specified),\s+(?:this|it)\s+defaults\s+to\s+the\s+(?P<v>`[^`]+`)\s+(?P<part>[a-z]+)(?P<tail>)\s*\.?$",
        re.I,
    ),
    # "By default, the scope is set to `Global` if no value is provided."
    # (a one-word subject: the property itself).
    re.compile(r"^by\s+default,?\s+the\s+[a-z]+\s+is\s+set\s+to\s+" + VALUE + TAIL, re.I),
    # "By default, the TTL value for a table is 0, which means data does not
    # expire." (`subj` must spell this property: `DefaultTimeToLive`).
    re.compile(
        r"^by\s+default,?\s+the\s+(?P<subj>[A-Za-z][A-Za-z ]{0,40}?)(?:\s+for\s+(?:a|an|each)\s+[a-z][a-z ]{0,30}?)?\s+is\s+"
        + VALUE + UNIT + TAIL,
        re.I,
    ),
    # "The minimum number is 1, the maximum is 3, and the default (if you
    # don't specify otherwise) is 3."
    re.compile(
        r"^the\s+minimum\s[^,]*,\s*the\s+maximum\s[^,]*,\s*and\s+the\s+default\s+\(if\s+you\s+don't\s+specify\s+otherwise\)\s+is\s+"
        + VALUE + UNIT + TAIL,
        re.I,
    ),
]
# Number words the documentation spells out ("one hour").
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}
# A duration stated in a larger unit for a property the documentation
# states in seconds.
TO_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}
# A size stated in a binary multiple for a property counted in bytes
# (`BlockSizeBytes`: "The default is 256 MiB").
TO_BYTES = {"kib": 1024, "mib": 1024**2, "gib": 1024**3}
# "If the target group protocol is TCP, UDP or HTTP, the default is 5." /
# "For target groups with a protocol of GENEVE, the default is 5."
# "If the protocol is HTTP, ..., or TCP_QUIC the default is `traffic-port`,
# which ..." (no comma before the default) / "If the protocol is GENEVE, the
# default is port 80." (a noun the property's name ends with: `noun`).
COND_NOUN = r"(?:(?P<noun>[a-z]+)\s+(?=[0-9`]))?"
CONDITIONED = [
    re.compile(
        r"^(?:if|when)\s+(?:the\s+)?(?P<subj>[a-z][a-z ]*?)\s+(?:is|are)\s+(?P<alts>[^,]+(?:,\s*[^,]+)*?)(?:,\s*|\s+)the\s+default(?:\s+value)?\s+is\s+"
        + COND_NOUN + VALUE + UNIT + TAIL,
        re.I,
    ),
    re.compile(
        r"^for\s+[a-z ]+?\s+with\s+an?\s+(?P<subj>[a-z][a-z ]*?)\s+of\s+(?P<alts>[^,]+(?:,\s*[^,]+)*?),\s*the\s+default(?:\s+value)?\s+is\s+"
        + VALUE + UNIT + TAIL,
        re.I,
    ),
]
# "If the target type is `lambda` , health checks are disabled by default
# but can be enabled." / "If the target type is `instance` , `ip` , or `alb`
# , health checks are always enabled and can't be disabled." for a boolean
# `<What>Enabled` switch whose name the subject spells (`what`).
CONDITIONED_SWITCH = re.compile(
    r"^(?:if|when)\s+(?:the\s+)?(?P<subj>[a-z][a-z ]*?)\s+(?:is|are)\s+(?P<alts>[^,]+(?:,\s*[^,]+)*?)\s*,\s*"
    r"(?P<what>[a-z]+(?:\s+[a-z]+){0,3}?)\s+(?:is|are)\s+(?:(?P<state>enabled|disabled)\s+by\s+default"
    r"(?:\s+but\s+can\s+be\s+(?:enabled|disabled))?|always\s+(?P<always>enabled|disabled)"
    r"(?:\s+and\s+can(?:'t|not|\s+not)\s+be\s+(?:enabled|disabled))?)(?P<tail>)\s*\.?$",
    re.I,
)
# "When `SqsManagedSseEnabled` is not defined, SSE-SQS encryption is enabled
# by default." for a boolean switch.
SWITCH = re.compile(r"\b(?:is|are)\s+(?P<state>enabled|disabled|turned\s+on|turned\s+off)\s+by\s+default\b", re.I)
CONDITION_WORDS = re.compile(r"\b(?:if|when|unless|except|for\s+(?!example))\b", re.I)
# "Auto (default) - Automatically update to the most recent ..." (a bare
# word: taken only when it is one of the property's enum values).
BARE_DEFAULT_ITEM = re.compile(r"^(?:[-*]\s*)?(?P<v>[A-Za-z][A-Za-z0-9_]*)\s+\((?:the\s+)?default\)\s*[-–:]\s", re.I)
DEFAULT_ITEM = re.compile(r"^(?:[-*]\s*)?`(?P<v>[^`]+)`\s*(?:[-–:]\s*)?\((?:the\s+)?default(?:\s+value)?\)", re.I)
QUOTED = re.compile(r"^(?:``(?P<a>[^`]+)``|`(?P<b>[^`]+)`|\"(?P<c>[^\"]+)\"|'(?P<d>[^']+)')$")
INTEGER = re.compile(r"^-?[0-9]+$")
NUMBER = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
BARE_TOKEN = re.compile(r"^[A-Za-z0-9_.:/+-]+$")
UNITS = {
    "second": "second", "seconds": "second", "minute": "minute", "minutes": "minute",
    "hour": "hour", "hours": "hour", "day": "day", "days": "day",
    "millisecond": "millisecond", "milliseconds": "millisecond", "ms": "millisecond",
    "byte": "byte", "bytes": "byte", "mb": "mb", "mib": "mb", "gb": "gb", "gib": "gb",
    "kib": "kb", "kb": "kb", "percent": "percent", "bits per second": "bps",
}
UNIT_WORDS = {
    "second": r"seconds?", "minute": r"minutes?", "hour": r"hours?", "day": r"days?",
    "millisecond": r"milliseconds?|millis", "byte": r"bytes?", "mb": r"mi?b|megabytes?",
    "gb": r"gi?b|gigabytes?", "kb": r"ki?b|kilobytes?", "percent": r"percent(?:age)?",
    "bps": r"bits?\s*per\s*second",
}

# Sentences saying AWS picks a value itself when none is given (placement,
# maintenance windows, the default security group): a value chosen at create
# time, not a constant.
CHOSEN_TRIGGER = re.compile(
    # "The default is a 30-minute window selected at random from an 8-hour
    # block of time for each AWS Region" (RDS PreferredMaintenanceWindow).
    # "If this parameter is not specified, DAX assigns the default VPC
    # security group to each node." (DAX SecurityGroupIds).
    # "The default value is a random, system-chosen Availability Zone"
    # (DMS); "By default in the Amazon FSx API, Amazon FSx selects an unused
    # IP address range for you" (the API CloudFormation calls; a console's
    # own choice is another sentence).
    r"(?:^default\s*:|^the\s+default(?:\s+value)?\s+is\s+an?\b|^by\s+default\s+in\s+the\s+(?:aws|amazon)\s+[a-z0-9]+\s+api\s*,|if\s+(?:you\s+(?:don't|do\s+not)\s+(?:specify|provide)|not\s+specified|omitted|none\s+is\s+specified|no\s+value"
    r"|(?:this|the)\s+(?:parameter|property|value|field|setting)\s+is\s+(?:not\s+specified|omitted)"
    # "If no other information is given this will be the VPC's Default
    # Security Group" (ElastiCache ServerlessCache SecurityGroupIds).
    r"|no\s+other\s+information\s+is\s+given))",
    re.I,
)
CHOSEN_VERB = re.compile(
    r"\b(?:selected\s+at\s+random|chosen\s+at\s+random|randomly\s+(?:selected|chosen|assigned)|system[- ]chosen|"
    r"(?:aws|amazon\s+[a-z0-9]+|the\s+service)\s+(?:selects|chooses|picks)|"
    # "ElastiCache automatically chooses an appropriate time range", "a
    # private IPv4 address will be automatically assigned".
    r"automatically\s+(?:chooses|selects|picks|assigns)|(?:is|are|will\s+be)\s+automatically\s+(?:assigned|selected|chosen)|"
    r"default\s+(?:ec2\s+)?(?:vpc\s+)?security\s+group|"
    # "If you don't specify a block, Kubernetes assigns addresses from
    # either the `10.100.0.0/16` or `172.20.0.0/16` CIDR blocks." (EKS
    # ServiceIpv4Cidr): a choice between the values named, see CHOSEN_EITHER.
    r"(?:assigns|uses|selects|chooses|picks)\b[^.]*?\bfrom\s+either)\b",
    re.I,
)
# The values such a choice is made from: "from either the `A` or `B` ...".
CHOSEN_EITHER = re.compile(r"\bfrom\s+either\s+(?:the\s+)?`([^`]+)`\s+or\s+(?:the\s+)?`([^`]+)`", re.I)
# Whole sentences that say the same without a trigger word: "To let Amazon
# choose the IPv6 CIDR block for you, omit this parameter." (EC2
# VPCCidrBlock), "We recommend ... letting Amazon EKS specify it for you."
# (EKS AccessEntry Username), "The default value for this parameter is 7
# days from creation time." (AppSync ApiKey Expires).
CHOSEN_WHOLE = re.compile(
    r"\bto\s+let\s+(?:aws|amazon)\b[^.]*\b(?:choose|select|assign)\b[^.]*\bomit\b|"
    r"\bletting\s+(?:aws|amazon(?:\s+[a-z0-9]+)?|the\s+service)\s+(?:specify|choose|select|assign)\s+it\s+for\s+you\b|"
    r"\bdefault\b[^.]*\bfrom\s+(?:the\s+)?(?:creation\s+time|time\s+of\s+creation)\b",
    re.I,
)
# "Defaults to the latest available version for the specified broker engine
# type." / "If not specified, the latest version of OpenSearch is used." on a
# `...Version` property: AWS resolves the newest version at create time, so
# the value is chosen then, not a constant (`might not be the latest` and
# "if the value is `$Latest`" speak of something else).
LATEST_VERSION = re.compile(
    r"(?:\bdefaults?\s+to|\bthe\s+default\s+is|\bby\s+default\b|\bwithout\s+specifying\b|"
    r"\bif\s+(?:not\s+specified|no\s+value\s+is\s+specified|you\s+(?:don't|do\s+not)\s+specify\b|(?:an?|the)\s+[a-z ]{1,40}?\s+is\s+not\s+specified\b))"
    r"[^.]*?\b(?:the\s+)?(?:latest|most\s+recent)\s+(?:available\s+)?(?:[A-Za-z0-9]+\s+){0,2}?version\b",
    re.I,
)
LATEST_VERSION_NOT = re.compile(r"\bmight\s+not\b|\bif\s+the\s+value\s+is\b|`\$?latest`", re.I)
# Names CloudFormation mints are the `generated` tier's business, not a default.
GENERATED_NAME = re.compile(r"physical\s+id|cloudformation\s+generates|generates\s+a\s+unique", re.I)

# Identifiers the documentation says AWS stores lower-cased.
LOWERCASE_STORED = re.compile(
    r"(?:stored\s+as\s+(?:a\s+)?lower[- ]?case|converted\s+to\s+lower[- ]?case|is\s+not\s+case[- ]sensitive|are\s+not\s+case[- ]sensitive|case[- ]insensitive)",
    re.I,
)


# A property the documentation opens by calling the name of a header: "The
# HTTP response header name.", "The name of the HTTP header field.", "The
# request header name that ...", "Name of the header".
HEADER_NAME_DOC = re.compile(
    r"(?:the\s+)?(?:(?:case[- ]insensitive|HTTP|request|response)\s+)*header\s+name\b"
    r"|(?:the\s+)?name\s+of\s+the\s+(?:HTTP\s+)?header\b",
    re.I,
)

# Epoch-seconds values the documentation says AWS rounds down to the hour.
HOUR_FLOOR = re.compile(r"seconds\s+since\s+the\s+epoch,?\s+rounded\s+down\s+to\s+the\s+nearest\s+hour", re.I)
# A list whose order the documentation calls meaningless.
ORDER_FREE = re.compile(
    r"\b(?:the\s+)?order\s+(?:of\s+[^.]{1,60}?\s+)?(?:is\s+not\s+(?:important|significant)|does\s+not\s+matter|doesn't\s+matter)",
    re.I,
)
# A list whose order carries meaning: "These policies are executed in the
# order that you list them.", "The order of the Availability Zones in the
# list is the order in which clusters are allocated.", "The order of the
# list determines the partition hierarchy.", "Provide these in the order in
# which you want them to run.", "... are listed in order of placement
# preference.", "The capacity types to prioritize, in order.", "Rules are
# processed in order.". Ordered by a value ("evaluated in order starting
# with the lowest maximum latency value") or "in order to" never match.
ORDERED = re.compile(
    r"\bin\s+the\s+order\s+(?:that|in\s+which)\s+(?:you|they)\s+(?:list|specify|provide)\b"
    r"|\bin\s+the\s+order\s+listed\b"
    r"|\bprovide\s+these\s+in\s+the\s+order\b"
    r"|\bthe\s+order\s+of\s+(?:the\s+)?[a-z ]{1,40}?\s+in\s+the\s+list\s+(?:is\s+the\s+order|determines)\b"
    r"|\bthe\s+order\s+of\s+the\s+list\s+determines\b"
    r"|\bthe\s+order\s+in\s+which\s+you\s+list\s+the\s+[a-z ]{1,30}?\s+is\b"
    r"|\blisted\s+in\s+order\s+of\s+(?:[a-z]+\s+)?preference\b"
    r"|,\s*in\s+order\s*\.?$"
    r"|\b(?:is|are)\s+processed\s+in\s+order\s*\.?$"
    r"|\bexecutes\s+[a-z ]{1,20}?\s+in\s+order\b",
    re.I,
)
# "... the requested path is compared with path patterns in the order in
# which cache behaviors are listed in the distribution." on a member: the
# list it names (`cache behaviors` = `CacheBehaviors`) is ordered.
ORDER_OF_LISTED = re.compile(r"\bin\s+the\s+order\s+in\s+which\s+(?P<noun>[a-z]+(?:\s+[a-z]+){0,3}?)\s+are\s+listed\b", re.I)
# "If one isn't specified, the `LATEST` platform version is used": a
# sentinel the service resolves to the concrete current version.
LATEST_SENTINEL = re.compile(r"`LATEST`\s+(?:[a-z]+\s+)?version\s+is\s+used", re.I)
# A prefix the service adds to a declared name: the documentation quotes a
# name (`MyAttribute`) and the stored form (`custom:MyAttribute`).
PREFIXED_NAME = re.compile(r"`(?P<prefix>[a-z]+:)(?P<name>[A-Za-z][A-Za-z0-9_]*)`")
# "Amazon Cognito returns this value as `value` for standard attributes,
# `custom:value` for custom attributes, and `dev:value` for developer-only
# attributes": unprefixed names are the service's standard elements, the
# prefixes mark a user's own.
STANDARD_UNPREFIXED = re.compile(r"\bas\s+`value`\s+for\s+standard\s+[a-z]+,", re.I)
USER_PREFIX = re.compile(r"`(?P<prefix>[a-z]+:)value`\s+for\s+")


def sentences(text):
    """Splits documentation into sentences and markdown lines."""
    for line in re.split(r"\n+", text or ""):
        line = line.strip()
        if DEFAULT_ITEM.match(line):
            yield line
            continue
        # A sentence whose full stop is missing ("... not affected by this
        # parameter If this parameter is omitted, the default ...") still
        # ends before a capital "If this"/"If you" inside a line.
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"(])|(?<=[a-z0-9])\s+(?=If\s+(?:this|you)\s)", line):
            part = part.strip().lstrip(">").strip()
            part = re.sub(r"^[-*+]\s+", "", part) if not DEFAULT_ITEM.match(part) else part
            if part:
                yield part


def unit_fits(unit, prop_name, doc):
    """A stated unit is the property's own when its name carries it or the
    description states the property in that unit elsewhere."""
    u = UNITS.get(unit.lower())
    if u is None:
        return False
    words = UNIT_WORDS[u]
    if re.search(words, prop_name, re.I):
        return True
    rest = re.sub(r"[^.]*\bdefault[^.]*", "", doc or "", flags=re.I)
    return re.search(r"\b(?:" + words + r")\b", rest, re.I) is not None


def parse_value(raw, kind, enum, unit, prop_name, doc="", item_kind=None, spelled=None):
    """The stated value as JSON compatible with the property, or None."""
    raw = raw.strip()
    q = QUOTED.match(raw)
    text = next((g for g in q.groups() if g is not None), None) if q else raw
    # "Default is `unset`." states no value at all.
    if text is None or text.lower() == "unset":
        return None
    # One more layer of quoting: `"admin"`, `'STRING'`, " `DISABLED` ".
    inner = re.match(r"^\s*(?:\"(?P<a>[^\"`']+)\"|'(?P<b>[^\"`']+)'|`(?P<c>[^\"`']+)`)\s*$", text) if q else None
    if inner:
        text = next(g for g in inner.groups() if g is not None)
    if re.match(r"^-?[0-9]{1,3}(?:,[0-9]{3})+$", text):
        text = text.replace(",", "")
    if not BARE_TOKEN.match(text):
        return None
    if not q and text.lower() in NUMBER_WORDS:
        text = str(NUMBER_WORDS[text.lower()])
    if unit and unit.lower() not in ("or", "but", "and"):
        u = UNITS.get(unit.lower())
        in_seconds = re.search(r"\bin\s+seconds\b", doc or "", re.I) and u in TO_SECONDS and INTEGER.match(text)
        if in_seconds and kind in ("integer", "number") and not re.search(UNIT_WORDS[u], prop_name, re.I):
            return int(text) * TO_SECONDS[u]
        if unit.lower() in TO_BYTES and kind in ("integer", "number") and prop_name.endswith("Bytes") and INTEGER.match(text):
            return int(text) * TO_BYTES[unit.lower()]
        if not unit_fits(unit, prop_name, doc):
            return None
    if kind == "array":
        v = parse_value("`" + text + "`" if q else text, item_kind, enum, None, prop_name, doc)
        return [v] if v is not None else None
    if isinstance(enum, list):
        if text in enum:
            return text
        # Prose spells an enum value in another case ("set to `Global`" for
        # `GLOBAL`): the one enum value equal but for case.
        same = [e for e in enum if isinstance(e, str) and e.lower() == text.lower()]
        if len(same) == 1:
            return same[0]
        # An integer enum (`[60, 120, 300, 600]`) states numbers.
        return int(text) if INTEGER.match(text) and int(text) in enum else None
    if kind == "boolean":
        return {"true": True, "false": False}.get(text.lower())
    if kind == "integer":
        return int(text) if INTEGER.match(text) else None
    if kind == "number":
        if INTEGER.match(text):
            return int(text)
        return float(text) if NUMBER.match(text) else None
    # `null` states no value at all.
    if kind == "string" and q and text != "null":
        return text
    # A dated API version ("The default value is 2015-10-08.").
    if kind == "string" and re.match(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", text):
        return text
    # A number stated for a property the schema types as a string
    # ("DurationInSeconds": "the default of 0 is used"): the read returns it
    # as a string.
    if kind == "string" and NUMBER.match(text) and (spelled is None or text in spelled):
        return text
    # A numeric range ("200-399") for a string property whose documentation
    # quotes that form as a value ("a range of values (for example,
    # "200-299")").
    if kind == "string" and re.match(r"^[0-9]+-[0-9]+$", text) and re.search(r"[\"`][0-9]+-[0-9]+[\"`]", doc or ""):
        return text
    # "Default is NULL" states no value at all.
    if kind == "string" and re.match(r"^[A-Z][A-Z0-9_]+$", text) and text != "NULL":
        return text
    return None


# Tails that only restate the default: "(i.e., backups are disabled for
# this cluster)", "by default", "if no value is provided".
# "Defaults to 1000 when not set." (Bedrock AgentCore) says the same.
RESTATING_TAIL = re.compile(
    r"^\s*(?:\(i\.e\.,?[^)]*\)|by\s+default|(?:by\s+default)?,?\s*if\s+(?:(?:no\s+value\s+is|a\s+value\s+(?:isn't|is\s+not)|not|nothing\s+is)\s+(?:provided|specified)|omitted)"
    r"|\s*when\s+not\s+(?:set|specified|provided))\s*$",
    re.I,
)


# An explaining ", which ..." tail ("which enables public access for your
# Kubernetes API server") is conditioned only by a real condition word.
WHICH_TAIL = re.compile(r"^(?:\s*\([^)]*\))?\s*,?\s*which\b", re.I)
WHICH_CONDITION = re.compile(r"\b(?:if|when|unless|except|only)\b", re.I)


def tail_ok(m):
    tail = m.groupdict().get("tail") or ""
    if WHICH_TAIL.match(tail):
        return not WHICH_CONDITION.search(tail)
    return RESTATING_TAIL.match(tail) is not None or not CONDITION_WORDS.search(tail)


# "Valid values are: `LINUX` (default), `WINDOWS_SERVER_2019_CORE` , ...":
# the one value the list marks as the default.
VALID_LIST_DEFAULT = re.compile(r"^valid\s+values\s*(?:are|include)?\s*:?\s.*?`(?P<v>[^`]+)`\s*\((?:the\s+)?default\)", re.I)
# "DataSync supports `NTLM` (default) and `KERBEROS` authentication." / "You
# can choose either `SSE_S3` (the default) or `SSE_KMS`." / "`SNAPSHOT_ONLY`
# - (Default value) moves cold snapshots ...": one quoted value marked the
# default, in a sentence that opens with no condition.
MARKED_DEFAULT = re.compile(r"`(?P<v>[^`]+)`\s*(?:[-–]\s*)?\(\s*(?:the\s+)?default(?:\s+value)?\s*\)", re.I)
CONDITION_OPENING = re.compile(r"^(?:if|for|when|unless|in|on|with|after|before|while)\b|\b(?:if|when|unless|while)\b", re.I)
# "- `instance` - Register targets by instance ID. This is the default
# value.": a listed value whose own item calls it the default.
# "No longer used. If included, the only allowed value is
# `RequestBasedUsage` .": a retired property whose one accepted value the
# service ignores; what AWS reports is that value and no setting can change
# behaviour. Only for a property documented as no longer used or deprecated:
# elsewhere "the only valid value" speaks of what a request may send when the
# property is set (Cloud Map's `HTTP` type), not of the unset state.
ONLY_VALUE = re.compile(
    r"^(?:if\s+included,\s+)?the\s+only\s+(?:allowed|valid|supported)\s+value\s+is\s+(?P<v>`[^`]+`)\s*\.?$", re.I
)
RETIRED = re.compile(r"\bno\s+longer\s+used\b|\bdeprecated\b", re.I)
# "If you omit this, the default event bus is used." on `EventBusName`: the
# name of the default <noun> is the word `default` (EventBridge's own bus).
# The entry only ever folds that literal, so where the default resource has
# another name nothing folds and nothing is hidden.
# "If this parameter is omitted, a container is assumed to be essential."
# on the boolean `Essential`: the adjective is the property, and omitted
# means true.
# "A null or zero CPU value is passed to Docker as `0` ..." (ECS container
# `Cpu`): the documentation treats zero and no value alike, so an unset
# number reads back as 0. The noun must be the property's name.
NULL_OR_ZERO = re.compile(
    r"^(?:a\s+)?null(?:,)?\s+(?:and|or)\s+zero\s+(?P<subj>[a-z]+)\s+values?\s+(?:is|are)\s+passed\b", re.I
)
ASSUMED_STATE = re.compile(
    r"^if\s+this\s+(?:parameter|property|field)\s+is\s+omitted,\s+an?\s+[a-z][a-z ]{1,30}?\s+is\s+assumed\s+to\s+be\s+(?P<adj>[a-z]+)\s*\.?$",
    re.I,
)
DEFAULT_NAMED = re.compile(
    r"^if\s+you\s+omit\s+this(?:\s+(?:field|property|parameter))?,\s+the\s+default\s+(?P<noun>[a-z][a-z ]{1,30}?)\s+is\s+used\s*\.?$",
    re.I,
)
# "If you don't specify a value, then Amazon RDS uses the default DB
# parameter group for the specified DB engine and version.", "If this
# argument is omitted, the default parameter group for the specified engine
# is used.", "Default: The default Amazon Redshift cluster parameter group.":
# on a `<...>GroupName` property the value is the service's own default
# group, whose name is `default` or starts with `default.` / `default:` (a
# prefix these services reserve: `default.mysql8.0`, `default.redis7`). The
# entry folds only such a name, never a group the user made.
DEFAULT_GROUP = re.compile(
    r"^(?:default\s*:|if\s+(?:you\s+(?:don't|do\s+not)\s+specify|you\s+omit|this\s+(?:argument|parameter|property)\s+is\s+omitted|omitted|not\s+specified))"
    r"[^.]*?\bthe\s+default\s+(?P<noun>(?:[A-Za-z]+\s+){0,4}?group)\b",
    re.I,
)
DEFAULT_GROUP_NAME = "re:^default(?:[.:][A-Za-z0-9._:-]+)?$"


def name_parts(name):
    """The words of a CamelCase name, an acronym run kept whole:
    `DBParameterGroupName` -> DB, Parameter, Group, Name."""
    return re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)


def names_default_group(noun, prop_name):
    """True when the words of "the default <noun>" and the property (less
    `Name`) end alike in at least two words: "DB parameter group" for
    `DBParameterGroupName`, "parameter group" for `CacheParameterGroupName`,
    "Amazon Redshift cluster parameter group" for `ClusterParameterGroupName`."""
    if not prop_name.endswith("GroupName"):
        return False
    a = [w.lower() for w in noun.split()]
    b = [w.lower() for w in name_parts(prop_name[: -len("Name")])]
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n >= 2 and (n == len(a) or n == len(b))


# "- **COGNITO_DEFAULT** - When Amazon Cognito emails your users, ... When
# you use the default option, ...": the item names itself the default option
# (the value in bold or bare digits instead of backticks). "- `OPEN_APP` –
# ... This is the default action.", "- `NONE` : ... This is the default if
# `namespaceType` is not specified." (the property itself unset), "- 0 -
# Creates a DB shard group without a standby ... This is the default value."
# "- **lowest-price** - ... This is the default value, but it might lead to
# high interruption rates ..." (a "but" clause warns, it does not condition).
ITEM_DEFAULT_LINE = re.compile(
    r"^(?:[-*]\s*)?(?:`(?P<v>[^`]+)`|\*\*(?P<b>[A-Za-z0-9_.:-]+)\*\*|(?P<n>[0-9]+))\s*[-–:]\s+.*?"
    r"\b(?:this\s+is\s+the\s+default(?:\s+(?:value|option|setting|mode|action|behaviou?r|policy|method))?"
    r"(?:\s+if\s+`?(?P<own>[A-Za-z]+)`?\s+is\s+not\s+specified)?(?:,\s*but\s+[^.]*)?\s*\.|when\s+you\s+use\s+the\s+default\s+option\b)",
    re.I,
)
# "Enabled by default." / "This option is disabled by default and there are
# no additional costs to use this feature." (a switch of its own).
SWITCH_SENTENCE = re.compile(
    r"^(?:this\s+(?:option|setting|feature|property|parameter)\s+is\s+)?(?P<state>enabled|disabled)\s+by\s+default\b", re.I
)
# "If you don't include this parameter, token revocation is automatically
# activated for the new user pool client." on a boolean switch whose name
# the subject spells (`what`).
OMITTED_SWITCH = re.compile(
    r"^if\s+(?:you\s+(?:don't|do\s+not)\s+(?:include|specify)\s+this\s+(?:parameter|property)|this\s+(?:parameter|property)\s+is\s+(?:omitted|not\s+specified)),\s+"
    r"(?P<what>[a-z]+(?:\s+[a-z]+){0,3}?)\s+(?:is|are)\s+(?:automatically\s+)?(?P<state>activated|deactivated|enabled|disabled|turned\s+on|turned\s+off)"
    r"(?:\s+for\s+(?:the|a|each)\s+new\s+[a-z ]{1,40}?)?\s*\.?$",
    re.I,
)
# "If you do not specify a certificate transparency logging preference on a
# new CloudFormation template, ..., this is the same as explicitly enabling
# the preference." / "... it is the same as explicitly denying export of
# your certificate.": leaving the switch out is its on (or off) state; the
# subject must share a word with the property's name.
OMITTED_IS_EXPLICIT = re.compile(
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+(?:an?|the)\s+(?P<what>[a-z ]{3,80}?)\s+(?:on|in)\s+a\s+new\s+[^,]+"
    r"(?:,\s+or\s+if\s+you\s+remove\s+[^,]+)?,\s+(?:it|this)\s+is\s+the\s+same\s+as\s+explicitly\s+"
    r"(?P<verb>enabling|disabling|allowing|denying)\b[^.]*\.?$",
    re.I,
)


def omitted_is_explicit(s, kind, enum, prop_name):
    """The switch state a sentence says leaving the property out equals,
    spelled in the property's kind (a boolean, or the one `ENABLED` /
    `DISABLED` pair of its enum), else None."""
    m = OMITTED_IS_EXPLICIT.match(s)
    if not m:
        return None
    name = {word_stem(x) for x in name_parts(prop_name)}
    if not {word_stem(x) for x in m.group("what").split()} & name:
        return None
    on = m.group("verb").lower() in ("enabling", "allowing")
    if kind == "boolean":
        return on
    return enum_switch_state(enum, on) if kind == "string" else None


# "By default, mapping is disabled." / "By default, tags are not copied." /
# "By default, it isn't encrypted.": the switch is off (or on) with no
# condition; the participle must name the property ("copied" ->
# CopyTagsToSnapshot, "encrypted" -> StorageEncrypted).
BY_DEFAULT_STATE = re.compile(
    r"^by\s+default,?\s+(?:it|[a-z]+(?:\s+[a-z]+)?)\s+(?P<neg>is\s+not\s+|are\s+not\s+|isn't\s+|aren't\s+|is\s+|are\s+)(?P<w>[a-z]+)\s*\.?$",
    re.I,
)


# The groups by which a sentence form names the property it speaks of;
# `names_this` checks each against the property.
NAMING_GROUPS = ("own", "subj", "part", "ending", "number")


def names_this(m, prop_name, kind=None):
    """False when a sentence's condition names another property: `own` (a
    quoted property name) or `subj` (words: "deployment controller" ->
    DeploymentController) must spell this property, `part` must be a word
    of its name ("a percentage": `ErrorPercentage`), "a number" is said of
    a number, and a percentage (`pct`) belongs to a `...Percent...` name."""
    g = m.groupdict()
    if g.get("own") and g["own"].lower() != prop_name.lower():
        return False
    # A list is named in the plural ("the default format" of `Formats`).
    if g.get("part") and not {g["part"].lower(), g["part"].lower() + "s"} & {w.lower() for w in name_parts(prop_name)}:
        return False
    if g.get("ending") and not ends_name(g["ending"], prop_name):
        return False
    if g.get("number") and kind not in ("integer", "number"):
        return False
    if g.get("pct") and "percent" not in prop_name.lower():
        return False
    if g.get("subj"):
        return spells(g["subj"], prop_name)
    return True


def ends_name(words, prop_name):
    """True when `words` are the last words of the property's name ("lease
    time" of `Ipv6AddressPreferredLeaseTime`; a list's last word in the
    plural)."""
    said = [w.lower() for w in words.split()]
    parts = [w.lower() for w in name_parts(prop_name)]
    if not said or len(said) > len(parts):
        return False
    tail = parts[len(parts) - len(said) :]
    return said[:-1] == tail[:-1] and tail[-1] in (said[-1], said[-1] + "s")


def spells(words, prop_name):
    """True when `words` spell the property's name: "deployment controller"
    -> DeploymentController. A trailing "value" may be left over, an
    all-capital abbreviation stands for the words of its initials, and a
    property that names a default may drop `Default`: "TTL value" spells
    `DefaultTimeToLive`."""
    parts = name_parts(prop_name)
    names = [parts]
    if len(parts) > 1 and parts[0] == "Default":
        names.append(parts[1:])
    said = words.split()
    for name in names:
        for tail in ([], ["value"]):
            if len(said) > len(tail) and [w.lower() for w in said[len(said) - len(tail):]] == tail:
                if initials_match(said[: len(said) - len(tail)], name):
                    return True
    return False


def initials_match(said, parts):
    """Matches spoken words to a name's parts, an all-capital word of two or
    more letters standing for as many parts as it has letters."""
    if not said:
        return not parts
    w = said[0]
    if len(w) > 1 and w.isupper() and w.isalpha() and len(parts) >= len(w):
        head = parts[: len(w)]
        if "".join(x[0].upper() for x in head) == w and all(x[:1].isupper() for x in head):
            if initials_match(said[1:], parts[len(w) :]):
                return True
    return bool(parts) and w.lower() == parts[0].lower() and initials_match(said[1:], parts[1:])


def participle_names(word, prop_name):
    """True when a participle ("copied", "encrypted") is the verb the
    property's name carries (CopyTagsToSnapshot, StorageEncrypted)."""
    w = word.lower()
    stems = {w}
    if w.endswith("ied"):
        stems.add(w[:-3] + "y")
    elif w.endswith("ed"):
        stems.update({w[:-2], w[:-1]})
    parts = [x.lower() for x in re.findall(r"[A-Z][a-z]*", prop_name)]
    return any(len(st) >= 4 and p.startswith(st) for st in stems for p in parts)


def enum_switch_state(enum, on):
    """The value of an enum that spells the two states (`enable` /
    `disable`, `ENABLED` / `DISABLED`) for on or off, else None."""
    if not isinstance(enum, list):
        return None
    pick = [e for e in enum if isinstance(e, str) and re.match(r"^%s[d]?$" % ("enable" if on else "disable"), e, re.I)]
    other = [e for e in enum if isinstance(e, str) and re.match(r"^%s[d]?$" % ("disable" if on else "enable"), e, re.I)]
    return pick[0] if len(pick) == 1 and len(other) == 1 else None


def switch_default(s, kind, enum, prop_name):
    """The default a sentence states for an on/off switch, else None."""
    if re.match(r"^(?:if|for)\b", s, re.I):
        return None
    m = SWITCH.search(s)
    if kind == "boolean" and m and re.search(r"enable", prop_name, re.I):
        return m.group("state").lower() in ("enabled", "turned on")
    m = SWITCH_SENTENCE.match(s)
    if m and not CONDITION_WORDS.search(s):
        on = m.group("state").lower() == "enabled"
        if kind == "boolean" and re.search(r"enable", prop_name, re.I):
            return on
        return enum_switch_state(enum, on) if kind == "string" else None
    m = BY_DEFAULT_STATE.match(s)
    if m and kind == "boolean":
        w = m.group("w").lower()
        neg = "not" in m.group("neg").lower() or "n't" in m.group("neg").lower()
        if w in ("enabled", "disabled") and re.search(r"enable", prop_name, re.I):
            return (w == "enabled") != neg
        if w not in ("enabled", "disabled") and participle_names(w, prop_name):
            return not neg
    return None


# "Specifies whether minor engine upgrades are applied automatically to the
# DB instance ... By default, minor engine upgrades are applied
# automatically." on a boolean: the "By default" clause restates what the
# property switches (true), or denies it (false): "By default, deletion
# protection isn't enabled."
WHETHER = re.compile(r"\bwhether\s+(?P<x>[^.]+)", re.I)
BY_DEFAULT_CLAUSE = re.compile(r"^by\s+default,?\s+(?P<y>[^.`]+?)\s*\.?$", re.I)
DENIALS = {"not", "isn't", "aren't", "doesn't", "don't", "won't", "never", "no"}
OPPOSITES = {"disabled": "enabled", "disable": "enable", "deactivated": "activated", "off": "on"}
CLAUSE_FILLER = {"the", "a", "an", "is", "are", "be", "by", "to", "of", "on", "in", "and", "it", "it's"}
# A name that denies what its "whether" clause says ("DisableExecuteApi-
# Endpoint: Specifies whether clients can invoke your API ...").
DENYING_NAME = re.compile(r"^(?:Disable|Disallow|No|Not|Skip|Omit|Exclude|Ignore|Deny|Prevent|Suppress|Block)[A-Z]")


def word_stem(w):
    """A word less its inflection: "upgrades", "upgraded" -> "upgrad"."""
    w = w.lower()
    for suf in ("ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    return w.rstrip("e")


# "To remove a value that you previously set, include the property but
# specify `-1` for the value." / "To clear a previously set value, specify a
# value of `-1` ." / "To remove the maximum `OnDemandThroughput` that is
# currently set on your table, set the value of `MaxReadRequestUnits` to
# -1.": -1 is how the service spells "no value", so a property never set
# reads back as -1. Any other number still surfaces.
CLEARED_SENTINEL = re.compile(
    r"^to\s+(?:remove|clear)\s+(?:a|the)\s+[^,]*?(?:previously|currently)\s+set\b[^,]*,\s+"
    r"(?:include\s+the\s+property\s+but\s+)?(?:specify|set)\s+(?:the\s+value\s+of\s+`?(?P<own>[A-Za-z0-9]+)`?\s+to\s+|a\s+value\s+of\s+)?"
    r"`?(?P<v>-1)`?(?:\s+for\s+the\s+value)?\s*\.?$",
    re.I,
)


def cleared_sentinel_default(doc, kind, prop_name):
    """(-1, sentence) when the documentation clears a set number with -1."""
    if kind not in ("integer", "number"):
        return None
    for s in sentences(doc):
        m = CLEARED_SENTINEL.match(s)
        if m and (m.group("own") is None or m.group("own") == prop_name):
            return -1, s
    return None


def restated_switch(doc, prop_name):
    """(value, sentence) when a boolean's "By default, ..." sentence says
    again what its "whether ..." clause switches, or denies it, using only
    that clause's words (and the name's); None when it says anything else,
    names a condition, or the name itself denies the clause."""
    w = WHETHER.search(doc or "")
    if w is None or DENYING_NAME.match(prop_name):
        return None
    said = {word_stem(x) for x in re.findall(r"[A-Za-z0-9']+", w.group("x"))}
    name = {word_stem(x) for x in name_parts(prop_name)}
    for s in sentences(doc):
        m = BY_DEFAULT_CLAUSE.match(s)
        if not m or CONDITION_WORDS.search(m.group("y")):
            continue
        words = [x.lower() for x in re.findall(r"[A-Za-z0-9']+", m.group("y"))]
        denied = [x for x in words if x in DENIALS]
        flipped = [OPPOSITES[x] for x in words if x in OPPOSITES]
        content = [word_stem(x) for x in [OPPOSITES.get(x, x) for x in words] if x not in DENIALS and x not in CLAUSE_FILLER]
        if denied and flipped or not content or not set(content) <= said | name or not set(content) & name:
            continue
        return (not (denied or flipped), s)
    return None


def enum_words(v):
    """The lower-case words an enum value spells (`ByLogStream` -> by log
    stream, `AWS_OWNED_KEY` -> aws owned key)."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", v)]


def enum_phrase_default(doc, enum, prop_name=None):
    """(value, sentence) when a "By default, ..." sentence's main clause
    spells exactly one of the property's enum values in words ("By default,
    log data is grouped by log stream, but the grouping can be set to
    random" -> `ByLogStream`), else None."""
    if not isinstance(enum, list):
        return None
    for s in sentences(doc):
        # "The default tier when you begin using Parameter Store is the
        # standard-parameter tier." (SSM `Tier`): the noun must be the
        # property, and only what follows "is" counts.
        own = re.match(r"^the\s+default\s+(?P<noun>[a-z]+)\b[^.]*?\bis\s+(?P<rest>.*)$", s, re.I)
        if own and own.group("noun").lower() == (prop_name or "").lower():
            s_words = own.group("rest")
        elif re.match(r"^by\s+default,", s, re.I):
            s_words = s
        else:
            continue
        clause = re.split(r",\s*but\b|;|\bunless\b|\bexcept\b|\bif\b|\bwhen\b", s_words, flags=re.I)[0]
        words = " %s " % " ".join(w.lower() for w in re.findall(r"[A-Za-z0-9]+", clause))
        hits = [e for e in enum if isinstance(e, str) and enum_words(e) and " %s " % " ".join(enum_words(e)) in words]
        if len(hits) == 1:
            return hits[0], s
    return None


# "If you don't specify this value, then Secrets Manager uses the key
# `aws/secretsmanager` ." on a key property: the service's AWS-managed key
# is the default, by alias or by that alias's ARN in this account. Only on
# the documentation's own word: elsewhere unset means unencrypted or an
# AWS-owned key, and the managed key is a real change (SNS, SQS, DynamoDB).
# "If no key ID is specified, the default, Kinesis Video-managed key
# (`aws/kinesisvideo`) is used." reads the same, and so does "Note that you
# should only provide this parameter if the key is different from the
# default DynamoDB key `alias/aws/dynamodb` ." on the key member of an
# encryption block: the member is read back only while that block turns
# encryption on (DynamoDB's `SSEEnabled`, compared on its own), and then
# the key left out is the managed one.
MANAGED_KEY_SENTENCE = re.compile(
    r"^(?:if\s+you\s+(?:don't|do\s+not)\s+(?:specify|include)\b|by\s+default,|if\s+no\s+key(?:\s+id)?\s+is\s+specified\b"
    r"|note\s+that\s+you\s+should\s+only\s+provide\s+this\s+parameter\s+if\s+the\s+key\s+is\s+different\s+from\s+the\s+default\b)[^`]*`(?:alias/)?aws/(?P<svc>[a-z0-9-]+)`",
    re.I,
)
KEY_PROPERTY = re.compile(r"Kms|KeyId$|KeyArn$")


# "If you don't provide a maintenance track name, the cluster is assigned
# to the `current` track.": the subject spells the property, the noun after
# the value is one of its words.
ASSIGNED_DEFAULT = re.compile(
    r"^if\s+you\s+(?:don't|do\s+not)\s+(?:provide|specify)\s+(?:a|an|the)\s+(?P<subj>[a-z][a-z ]*?),\s+the\s+[a-z][a-z ]*?\s+(?:is|are)\s+assigned\s+to\s+the\s+"
    + VALUE
    + r"\s+(?P<noun>[a-z]+)\s*\.?$",
    re.I,
)


def managed_key_default(doc, prop_name):
    """(values, sentence) when the documentation names the AWS-managed key
    a key property defaults to."""
    if not KEY_PROPERTY.search(prop_name):
        return None
    for s in sentences(doc):
        m = MANAGED_KEY_SENTENCE.match(s)
        if m:
            alias = "alias/aws/" + m.group("svc")
            return ([alias, "arn:${Partition}:kms:${Region}:${AccountId}:" + alias], s)
    return None


# "The AWS managed 'AdministratorAccess' policy is applied as a default if
# this is not set." on a list of policy ARNs: the AWS managed policy of that
# name, whose ARN is `arn:<partition>:iam::aws:policy/<name>` (the
# partition of the stack's region; where that is unknown nothing folds).
MANAGED_POLICY_SENTENCE = re.compile(
    r"^the\s+AWS\s+managed\s+['`\"](?P<name>[A-Za-z0-9+=,.@_-]+)['`\"]\s+policy\s+is\s+applied\s+as\s+a\s+default"
    r"\s+if\s+this\s+is\s+not\s+set\s*\.?$",
    re.I,
)


def managed_policy_default(doc, prop_name):
    """(value, sentence) when a list of policy ARNs documents the AWS
    managed policy it holds by default."""
    if not re.search(r"Polic(?:y|ies)(?:Arns?)?$", prop_name):
        return None
    for s in sentences(doc):
        m = MANAGED_POLICY_SENTENCE.match(s)
        if m:
            return (["arn:${Partition}:iam::aws:policy/" + m.group("name")], s)
    return None


# "If you don't specify an execution role, CloudFormation uses the
# `AWSCloudFormationStackSetExecutionRole` role for the StackSet
# operation.": the named resource a `<Subject>Name` property defaults to,
# the noun the subject's own.
USES_NAMED = re.compile(
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+an?\s+(?P<subj>[a-z][a-z ]{0,40}?),\s+[A-Z][A-Za-z0-9 ]{0,40}?\s+uses\s+the\s+"
    r"`(?P<v>[A-Za-z0-9_.:/+-]+)`\s+(?P<noun>[a-z]+)\s+for\s+the\s+[A-Za-z ]{1,40}?\s+operation\s*\.?$",
    re.I,
)


# "If you don't specify otherwise in the configuration of your app client,
# your refresh tokens are valid for 30 days." with "The default time unit
# for `RefreshTokenValidity` in an API request is days.": the number in the
# property's default unit (a `<Subject>Validity` the words spell). Another
# unit states no number here.
VALID_FOR = re.compile(
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+otherwise\b[^,]*,\s+your\s+(?P<subj>[a-z][a-z ]{0,30}?)s\s+are\s+valid\s+for\s+"
    r"(?P<n>[0-9]+|one)\s+(?P<unit>[a-z]+)\s*\.?$",
    re.I,
)
DEFAULT_TIME_UNIT = re.compile(r"\bthe\s+default\s+time\s+unit\s+for\s+`(?P<own>[A-Za-z]+)`\s+in\s+an\s+api\s+request\s+is\s+(?P<unit>[a-z]+)\b", re.I)


def valid_for_default(doc, kind, prop_name, paths):
    """(when, number, sentence) for a validity stated in the property's own
    default time unit, else None. Where a sibling `<...>Units.<Subject>`
    sets the unit (`TokenValidityUnits.RefreshToken`), the number holds
    only while that unit is the default one."""
    unit = next((m.group("unit") for m in DEFAULT_TIME_UNIT.finditer(doc or "") if m.group("own") == prop_name), None)
    if kind not in ("integer", "number") or unit is None:
        return None
    # A line broken mid-sentence ("your refresh\ntokens are valid ...").
    for s in sentences(re.sub(r"(?<=[A-Za-z,])\n(?=[a-z])", " ", doc)):
        m = VALID_FOR.match(s)
        if m and (camel(m.group("subj").split()) + "Validity").lower() == prop_name.lower() and UNITS.get(m.group("unit").lower()) == UNITS.get(unit.lower()):
            member = prop_name[: -len("Validity")]
            units = [q for q in paths if q.endswith("Units." + member) and q.count(".") == 1]
            when = {units[0]: [unit.lower(), None]} if len(units) == 1 else None
            return (when, 1 if m.group("n").lower() == "one" else int(m.group("n")), s)
    return None


# "By default, Lambda functions send logs to a default log group named
# `/aws/lambda/<function name>` .": a name built from the resource's own
# name, which is its physical id when the schema identifies the type by
# `<Noun>Name` alone (`FunctionName`).
NAMED_AFTER_SELF = re.compile(r"\b[Bb]y\s+default\b[^.`]*\bnamed\s+``?(?P<v>[^`<>]*<(?P<ph>[a-z][a-z ]*?)\s+name>[^`<>]*)``?")


def self_named_default(doc, kind, noun, doc_schema):
    """(value with `${PhysicalId}`, sentence) for a default named after the
    resource itself, else None."""
    own = ["/properties/" + camel(noun.split()) + "Name"]
    if kind != "string" or (doc_schema.get("primaryIdentifier") or []) != own:
        return None
    for s in sentences(doc):
        m = NAMED_AFTER_SELF.search(s)
        if m and m.group("ph") == noun:
            return (m.group("v").replace("<%s name>" % noun, "${PhysicalId}"), s)
    return None


# "Otherwise, if you don't specify a value for `FailureThreshold`, the
# default value is three health checks." on a property whose text opens
# "The number of consecutive health checks ...": the value counts the noun
# the property counts. "Otherwise" only past the property's own "`X` is not
# supported when ..." (the case the value cannot be set at all).
COUNT_DEFAULT = re.compile(
    r"^(?P<otherwise>otherwise,\s+)?if\s+you\s+(?:don't|do\s+not)\s+specify\s+a\s+value\s+for\s+`(?P<own>[A-Za-z0-9]+)`\s*,\s+"
    r"the\s+default\s+value\s+is\s+(?P<v>[0-9]+|[a-z]+)\s+(?P<count>[a-z]+(?:\s+[a-z]+){0,2})\s*\.?$",
    re.I,
)


def counted_default_holds(m, doc, prop_name):
    """True when the sentence names this property, its noun is what the
    property's text says it numbers, and an "otherwise" follows the
    property's own "not supported" case."""
    if m.group("own").lower() != prop_name.lower():
        return False
    counts = re.search(r"\bthe\s+number\s+of\s+(?:[a-z]+\s+){0,2}?%s\b" % re.escape(m.group("count")), doc or "", re.I)
    unsupported = re.search(r"`%s`\s+is\s+not\s+supported\s+when\b" % re.escape(m.group("own")), doc or "", re.I)
    return bool(counts) and (not m.group("otherwise") or bool(unsupported))


# "The default `AccessTokenValidity` time unit is `hours`." on
# `TokenValidityUnits.AccessToken` (Cognito): the unit of the property the
# member is named for (its name extends the member's).
UNIT_OF_DEFAULT = re.compile(r"^the\s+default\s+`(?P<of>[A-Za-z0-9]+)`\s+time\s+unit\s+is\s+(?P<v>`[^`]+`)\s*\.?$", re.I)


# "If you create a cluster by using the EKS API, AWS SDKs, or AWS
# CloudFormation , the default is `CONFIG_MAP` ." (EKS) / "However, for
# `AWS::EMR::Cluster` resources in CloudFormation, the default is `false`."
# (EMR) / "When you use the API to create a queue, the default is
# on-demand." (MediaConvert; CloudFormation creates through the API): the
# default of what CloudFormation creates, which is every resource realdrift
# reads; it outranks the defaults stated for other tools (the EKS console's
# `API_AND_CONFIG_MAP`, the EMR API's `true`). A bare word must spell one of
# the property's enum values.
CLOUDFORMATION_DEFAULT = re.compile(
    r"^(?:however,\s+)?(?:if\s+you\s+create\s+(?:a|an|the)\s+[a-z ]{1,40}?\s+(?:by\s+using|using|with|through)\s+"
    r"[^.`]*?\b(?:aws\s+)?cloudformation|for\s+`AWS::[A-Za-z0-9]+::[A-Za-z0-9]+`\s+resources\s+in\s+(?:aws\s+)?cloudformation"
    r"|when\s+you\s+use\s+the\s+api\s+to\s+create\s+an?\s+[a-z ]{1,40}?)"
    r"\s*,\s*the\s+default(?:\s+value)?\s+is\s+(?:(?P<v>`[^`]+`)|(?P<w>[a-z][a-z-]*))\s*\.?$",
    re.I,
)


def cloudformation_default(doc, kind, enum, prop_name, item_kind=None, spelled=None):
    """(value, sentence) for the default a doc text states for resources
    CloudFormation creates, else None."""
    for s in sentences(doc):
        m = CLOUDFORMATION_DEFAULT.match(s)
        if m and m.group("w"):
            said = re.split(r"[-\s]+", m.group("w").lower())
            hits = [x for x in (enum or spelled or []) if isinstance(x, str) and enum_words(x) == said]
            v = hits[0] if len(hits) == 1 else None
        else:
            v = parse_value(m.group("v"), kind, enum, None, prop_name, doc, item_kind, spelled) if m else None
        if v is not None:
            return v, s
    return None


def stated_default(doc, kind, enum, prop_name, item_kind=None, spelled=None):
    """(value, sentence) for the one unconditioned default a doc text
    states, else None."""
    ours = cloudformation_default(doc, kind, enum, prop_name, item_kind, spelled)
    if ours:
        return ours
    found = []
    for s in sentences(doc):
        m = UNIT_OF_DEFAULT.match(s)
        if m and kind == "string" and m.group("of").lower().startswith(prop_name.lower()):
            v = parse_value(m.group("v"), kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
    for line in re.split(r"\n+", doc or ""):
        m = ITEM_DEFAULT_LINE.match(line.strip())
        if m and (m.group("own") or prop_name).lower() == prop_name.lower():
            raw = m.group("n") if m.group("n") is not None else "`" + (m.group("v") or m.group("b")) + "`"
            v = parse_value(raw, kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, line.strip()))
    for s in sentences(doc):
        m = DEFAULT_ITEM.match(s)
        if m:
            v = parse_value("`" + m.group("v") + "`", kind, enum, None, prop_name, doc, item_kind)
            if v is not None:
                found.append((v, s))
            continue
        m = BARE_DEFAULT_ITEM.match(s)
        allowed = enum if isinstance(enum, list) else spelled
        if m and allowed and m.group("v") in allowed:
            v = parse_value("`" + m.group("v") + "`", kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
            continue
        v = omitted_is_explicit(s, kind, enum if isinstance(enum, list) else spelled, prop_name)
        if v is not None:
            found.append((v, s))
            continue
        m = OMITTED_SWITCH.match(s)
        if m and kind == "boolean" and switch_names(m.group("what"), prop_name):
            found.append((m.group("state").lower() in ("activated", "enabled", "turned on"), s))
            continue
        m = NULL_OR_ZERO.match(s)
        if m and kind in ("integer", "number") and m.group("subj").lower() == prop_name.lower():
            found.append((0, s))
            continue
        m = ASSUMED_STATE.match(s)
        if m and kind == "boolean" and m.group("adj").lower() == prop_name.lower():
            found.append((True, s))
            continue
        m = DEFAULT_NAMED.match(s)
        # The noun, or its tail past a qualifier, is the name's subject:
        # "the default event bus" (EventBusName), "the default schedule
        # group" (a schedule's GroupName).
        words = m.group("noun").split() if m else []
        if m and kind == "string" and prop_name in {camel(words[i:]) + "Name" for i in range(len(words))}:
            found.append(("default", s))
            continue
        m = USES_NAMED.match(s)
        if m and kind == "string" and prop_name == camel(m.group("subj").split()) + "Name" and m.group("subj").split()[-1] == m.group("noun"):
            found.append((m.group("v"), s))
            continue
        m = ASSIGNED_DEFAULT.match(s)
        if m and spells(m.group("subj"), prop_name) and m.group("noun").lower() in m.group("subj").lower().split():
            v = parse_value(m.group("v"), kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
            continue
        m = DEFAULT_GROUP.match(s)
        if m and kind == "string" and names_default_group(m.group("noun"), prop_name):
            found.append((DEFAULT_GROUP_NAME, s))
            continue
        m = ONLY_VALUE.match(s)
        if m and RETIRED.search(doc):
            v = parse_value(m.group("v"), kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
            continue
        marked = MARKED_DEFAULT.findall(s)
        # A value of the property's own list only (a string the schema
        # leaves free could be another property's value the sentence names).
        listed = enum if isinstance(enum, list) else spelled
        own_value = kind == "boolean" or (kind == "string" and listed and marked and marked[0] in listed)
        if len(marked) == 1 and own_value and not VALID_LIST_DEFAULT.match(s) and not CONDITION_OPENING.search(s.strip()):
            v = parse_value("`" + marked[0] + "`", kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
                continue
        m = VALID_LIST_DEFAULT.match(s)
        if m and len(re.findall(r"\(default\)", s, re.I)) == 1:
            v = parse_value("`" + m.group("v") + "`", kind, enum, None, prop_name, doc, item_kind, spelled)
            if v is not None:
                found.append((v, s))
            continue
        m = COUNT_DEFAULT.match(s)
        if m and counted_default_holds(m, doc, prop_name) and kind == "integer":
            v = parse_value(m.group("v"), kind, enum, None, prop_name, doc)
            if v is not None:
                found.append((v, s))
            continue
        for rx in DEFAULT_SENTENCES:
            m = rx.match(s)
            if m and tail_ok(m) and names_this(m, prop_name, kind):
                raw = "`" + m.group("v") + "`" if rx is LITERAL_IN_PARENS else m.group("v")
                v = parse_value(raw, kind, enum, m.groupdict().get("unit"), prop_name, doc, item_kind, spelled)
                if v is not None:
                    found.append((v, s))
                break
        else:
            hit = switch_default(s, kind, enum or spelled, prop_name)
            if hit is not None:
                found.append((hit, s))
    values = {json.dumps(v, sort_keys=True) for v, _ in found}
    # Two different stated defaults = a conditioned default: skip.
    if len(values) != 1:
        return None
    # A value the documentation's own list of valid values leaves out is a
    # slip of the text ("Valid values are `auto` (case-sensitive),
    # `'epochsecs'`, ... It defaults to 10."), not a default.
    listed = valid_values(doc)
    if kind == "string" and listed and isinstance(found[0][0], str) and found[0][0].lower() not in listed:
        return None
    return found[0]


# "Valid values are `auto` (case-sensitive), `'timeformat_string'` , or
# `'epochsecs'`."
VALID_VALUES = re.compile(
    r"\bvalid\s+values\s+(?:are|include)\s*:?\s*"
    r"(?P<list>`[^`]+`(?:[ \t]*(?:\([^)\n]*\))?[ \t]*(?:,|\bor\b|\band\b)[ \t]*(?:(?:or|and)[ \t]+)?`[^`]+`)+)",
    re.I,
)


def valid_values(doc):
    """The quoted values an inline "Valid values are ..." list of two or
    more holds, in lower case (quotes inside the backticks stripped), or
    None."""
    m = VALID_VALUES.search(doc or "")
    if not m:
        return None
    return {v.strip("'\"").lower() for v in re.findall(r"`([^`]+)`", m.group("list"))}


BAG_ITEM = re.compile(r"^[-*]\s*`(?P<key>[a-z0-9_.]+)`\s*-\s*(?P<rest>.*)$")


def bag_defaults(doc):
    """{attribute key: default} from the documentation of a {Key, Value}
    attribute list's `Key`: one bullet per key ("- `idle_timeout.timeout_seconds`
    - ... The default is 60 seconds."). A key whose bullet states more than
    one default, or a default under a condition, is skipped. Values are
    strings, as the attribute list holds them."""
    out = {}
    for line in re.split(r"\n+", doc or ""):
        m = BAG_ITEM.match(line.strip())
        if not m:
            continue
        key, found = m.group("key"), set()
        for sent in sentences(m.group("rest")):
            for rx in DEFAULT_SENTENCES:
                d = rx.match(sent)
                if not d or not tail_ok(d):
                    continue
                # A form that names a property ("the default for
                # Application Load Balancers is ...") names no key.
                if any(d.groupdict().get(g) for g in NAMING_GROUPS):
                    continue
                raw = d.group("v")
                q = QUOTED.match(raw)
                text = next((g for g in q.groups() if g is not None), None) if q else raw
                unit = d.groupdict().get("unit")
                if text and NUMBER.match(text) and unit and unit.lower() not in ("or", "but", "and"):
                    u = UNITS.get(unit.lower())
                    if u is None or not re.search(UNIT_WORDS[u], key, re.I):
                        # "The default value is 1 day (86400 seconds)." on a
                        # `..._seconds` key: the same in the key's unit.
                        alt = re.match(r"^\s*\(\s*(?P<n>[0-9]+)\s+(?P<u>[a-z]+)\s*\)\s*$", d.group("tail") or "", re.I)
                        au = alt and UNITS.get(alt.group("u").lower())
                        if not (au and re.search(UNIT_WORDS[au], key, re.I)):
                            break
                        text, q = alt.group("n"), None
                if text and (q or NUMBER.match(text)) and BARE_TOKEN.match(text):
                    found.add(text)
                break
        if len(found) == 1:
            out[key] = found.pop()
    return out


# "The default for Network Load Balancers and Gateway Load Balancers is
# `false`." in a key's bullet: a default per kind of the resource, each kind
# an enum value of a top-level property (`Type`: `network`, `gateway`)
# followed by the resource type's own noun.
BAG_KIND_DEFAULT = re.compile(
    r"^the\s+default\s+for\s+(?P<who>[A-Za-z ,]+?)\s+is\s+" + VALUE + r"(?:\s*,\s*and\s+can(?:'t|not)\s+be\s+changed)?" + TAIL, re.I
)


def type_noun(cfn_type):
    """The words of a type's name: `AWS::ElasticLoadBalancingV2::LoadBalancer`
    -> "load balancer"."""
    return " ".join(w.lower() for w in re.findall(r"[A-Z][a-z0-9]*", cfn_type.split("::")[-1]))


# "For new UDP/TCP_UDP target groups the default is `true`." in a key's
# bullet: the kinds are enum values of a top-level property, before the
# type's noun; "Otherwise, the default is `false`." after it states the
# default for the rest of that enum.
BAG_FOR_KINDS_DEFAULT = re.compile(
    r"^for\s+(?:new\s+)?(?P<who>[A-Za-z0-9_]+(?:\s*(?:/|,|\bor\b|\band\b)\s*[A-Za-z0-9_]+)*)\s+(?P<noun>[a-z][a-z ]*?)s,?\s+the\s+default\s+is\s+"
    + VALUE + TAIL,
    re.I,
)
OTHERWISE_DEFAULT = re.compile(r"^otherwise,\s+the\s+default\s+is\s+" + VALUE + TAIL, re.I)
# "The default is disabled if the target group type is IP address and the
# target group protocol is TCP or TLS." in a key's bullet: each condition
# names the type's noun, one word of a top-level property's name and values
# of that property's enum.
BAG_IF_DEFAULT = re.compile(r"^the\s+default\s+is\s+(?P<v>`[^`]+`|enabled|disabled)\s+if\s+(?P<conds>[^.]+?)\s*\.?$", re.I)
BAG_CONDITION = re.compile(r"^the\s+(?P<noun>[a-z][a-z ]*?)\s+(?P<attr>[a-z]+)\s+is\s+(?P<who>[A-Za-z0-9_ ]+?)$", re.I)
# "The value is `true` or `false`." in a key's bullet: the switch words
# "enabled" and "disabled" then spell those two values.
BAG_BOOLEAN = re.compile(r"\bthe\s+value\s+is\s+`true`\s+or\s+`false`", re.I)
SWITCH_WORDS = {"enabled": "true", "disabled": "false"}


def enum_value_named(words, enum):
    """The one value of `enum` the words name: the words themselves, or
    their first word ("IP address" names `ip`), in any case."""
    for cand in (words, words.split()[0]):
        hits = [x for x in enum if isinstance(x, str) and x.lower() == cand.lower()]
        if len(hits) == 1:
            return hits[0]
    return None


def bag_if_condition(conds, noun, kinds):
    """{property: [values]} for "the <noun> <attr> is <values>" clauses
    joined by "and": `attr` ends the property's name (the bare name wins
    over a qualified one: `Protocol` over `HealthCheckProtocol`), and every
    value is one of its enum. None when any clause does not resolve."""
    when = {}
    for clause in re.split(r"\s+and\s+", conds):
        c = BAG_CONDITION.match(clause.strip())
        if not c or c.group("noun").lower() != noun:
            return None
        attr = c.group("attr").lower()
        words = [w.strip() for w in re.split(r",|\bor\b", c.group("who")) if w.strip()]
        owners = {}
        for p in sorted(kinds):
            values = [enum_value_named(w, kinds[p]) for w in words]
            if p.lower().endswith(attr) and words and None not in values:
                owners[p] = sorted(set(values))
        owners = {p: v for p, v in owners.items() if p.lower() == attr} or owners
        if len(owners) != 1 or set(owners) & set(when):
            return None
        when.update(owners)
    return when or None


def bag_value(raw, bullet):
    """A stated value's text: quoted, or a switch word where the bullet says
    the value is `true` or `false`."""
    if raw.lower() in SWITCH_WORDS:
        return SWITCH_WORDS[raw.lower()] if BAG_BOOLEAN.search(bullet) else None
    return quoted_text(raw)


# "It is set to `false` for internet-facing load balancers and `true` for
# internal load balancers, preventing ...": a value per kind, each kind an
# enum value of one top-level property followed by the type's noun.
BAG_SET_PER_KIND = re.compile(
    r"^it\s+is\s+set\s+to\s+(?P<v1>`[^`]+`)\s+for\s+(?P<w1>[A-Za-z][A-Za-z-]*)\s+(?P<n1>[a-z][a-z ]*?)s\s+and\s+"
    r"(?P<v2>`[^`]+`)\s+for\s+(?P<w2>[A-Za-z][A-Za-z-]*)\s+(?P<n2>[a-z][a-z ]*?)s\b(?:,\s+[^.]*)?\s*\.?$",
    re.I,
)


def bag_set_per_kind(sent, noun, kinds):
    """[(when, value)] for a sentence stating one value for each of two kinds
    of the resource, else []."""
    m = BAG_SET_PER_KIND.match(sent)
    if not m or m.group("n1").lower() != noun or m.group("n2").lower() != noun:
        return []
    out = []
    for w, v in (("w1", "v1"), ("w2", "v2")):
        when, value = kind_condition([m.group(w)], None, kinds), quoted_text(m.group(v))
        if not when or value is None:
            return []
        out.append((when, value))
    return out


def bag_kind_defaults(doc, noun, kinds):
    """[(key, {property: [value]}, default, quote)] for defaults a `{Key,
    Value}` list's bullets state per kind of resource. `kinds` maps a
    top-level property to its enum; each kind named must be one value of
    the same property."""
    out = []
    for line in re.split(r"\n+", doc or ""):
        m = BAG_ITEM.match(line.strip())
        if not m:
            continue
        stated = []
        for sent in sentences(m.group("rest")):
            per_kind = bag_set_per_kind(sent, noun, kinds)
            for when, value in per_kind:
                out.append((m.group("key"), when, value, sent))
            if per_kind:
                continue
            i = BAG_IF_DEFAULT.match(sent)
            if i:
                when = bag_if_condition(i.group("conds"), noun, kinds)
                value = bag_value(i.group("v"), m.group("rest"))
                if when and value:
                    stated.append(when)
                    out.append((m.group("key"), when, value, sent))
                continue
            d = BAG_KIND_DEFAULT.match(sent) or BAG_FOR_KINDS_DEFAULT.match(sent)
            o = OTHERWISE_DEFAULT.match(sent)
            value = bag_value((d or o).group("v"), m.group("rest")) if (d or o) and tail_ok(d or o) else None
            if value and o and len(stated) == 1:
                # The rest of each enum the sentence before named: "not (A
                # and B)" holds where A fails or B fails, one entry each.
                for prop, named in sorted(stated[0].items()):
                    rest = [x for x in kinds[prop] if isinstance(x, str) and x not in named]
                    if rest:
                        out.append((m.group("key"), {prop: sorted(rest)}, value, sent))
                continue
            if not value or not d:
                continue
            if d.re is BAG_FOR_KINDS_DEFAULT:
                names = [w for w in re.split(r"\s*(?:/|,|\bor\b|\band\b)\s*", d.group("who")) if w]
                when = kind_condition(names, None, kinds) if d.group("noun").lower() == noun else None
            else:
                names = [w.strip() for w in re.split(r",|\band\b|\bor\b", d.group("who")) if w.strip()]
                words = [re.match(r"^(?P<w>[a-z]+)\s+%ss?$" % re.escape(noun), n, re.I) for n in names]
                when = kind_condition([w.group("w") for w in words], None, kinds) if names and all(words) else None
            if when:
                stated.append(when)
                out.append((m.group("key"), when, value, sent))
    return out


def quoted_text(raw):
    """The text inside a quoted value, or None for an unquoted one."""
    q = QUOTED.match(raw)
    return next((g for g in q.groups() if g is not None), None) if q else None


# "Internal load balancers must use `ipv4`." on `IpAddressType`: the one
# value a kind of the resource allows, the kind an enum value of a
# top-level property (`Scheme`: `internal`) followed by the type's noun.
KIND_MUST_USE = re.compile(r"^(?P<who>[A-Za-z][A-Za-z-]*)\s+(?P<noun>[a-z][a-z ]*?)s\s+must\s+use\s+(?P<v>`[^`]+`)(?P<tail>)\s*\.?$", re.I)
# "The default `maximumPercent` value for a service using the `REPLICA`
# service scheduler is 200%." / "The default value for a replica service for
# `minimumHealthyPercent` is 100%." on an ECS service's deployment settings:
# the kind (`REPLICA`) is a value of one top-level property's enum. A value
# stated "for the AWS CLI, the AWS SDKs, and the APIs" (and another for a
# console) is the one CloudFormation gets: it calls the API.
KIND_USING_DEFAULT = re.compile(
    r"^the\s+default\s+(?:`(?P<own>[A-Za-z0-9]+)`\s+)?value\s+for\s+an?\s+(?:(?P<who1>[A-Za-z_]+)\s+)?(?P<noun>[a-z]+)"
    r"(?:\s+using\s+the\s+`(?P<who2>[A-Za-z0-9_]+)`\s+[a-z]+(?:\s+[a-z]+)?)?(?:\s+for\s+`(?P<own2>[A-Za-z0-9]+)`)?\s+is\s+"
    + VALUE + r"%?(?P<tail>\s+for\s+the\s+AWS\s+CLI\s*,\s*the\s+AWS\s+SDKs,?\s+and\s+the\s+APIs\b.*)?\s*\.?$",
    re.I,
)


def using_kind_defaults(doc, kind, enum, prop_name, noun, kinds):
    """[({property: [value]}, value, quote)] for a default stated for one
    kind of the resource in the `KIND_USING_DEFAULT` form; the sentence
    must name this property if it names one, and the type's noun."""
    out = []
    for s in sentences(doc):
        m = KIND_USING_DEFAULT.match(s.strip())
        if not m or m.group("noun").lower() != noun.split()[-1]:
            continue
        whos = [w for w in (m.group("who1"), m.group("who2")) if w]
        owns = [o for o in (m.group("own"), m.group("own2")) if o]
        if len(whos) != 1 or any(o.lower() != prop_name.lower() for o in owns):
            continue
        when = kind_condition(whos, prop_name, kinds)
        v = parse_value(m.group("v"), kind, enum, None, prop_name, doc) if when else None
        if v is not None:
            out.append((when, v, s.strip()))
    return out


# "For HTTPS, the default is 443." on a listener's `Port`: the kind is a
# value of a sibling's enum (`Protocol`).
KIND_DEFAULT = re.compile(r"^for\s+(?P<who>[A-Za-z0-9_-]+),\s+the\s+default(?:\s+value)?\s+is\s+" + VALUE + UNIT + TAIL, re.I)
# "- gp3: `3,000` ( *default* ) `- 80,000` IOPS" in a range list on `Iops`:
# the default for one kind, the kind an enum value of a sibling
# (`VolumeType`).
KIND_BULLET_DEFAULT = re.compile(r"^[-*]\s*(?P<who>[A-Za-z0-9_-]+)\s*:\s*(?P<v>`[^`]+`)(?P<tail>)\s*\(\s*\*?default\*?\s*\)", re.I)


def kind_defaults(doc, kind, enum, prop_name, noun, kinds):
    """[({property: [value]}, value, quote)] for the value one kind of the
    resource must hold or holds by default, stated in a sentence or in a
    range list's line. `kinds` maps a top-level property to its enum; the
    kind must be a value of exactly one of them."""
    out = []
    found = [(s, KIND_MUST_USE.match(s) or KIND_DEFAULT.match(s)) for s in sentences(doc)]
    found += [(ln.strip(), KIND_BULLET_DEFAULT.match(ln.strip())) for ln in re.split(r"\n+", doc or "")]
    for quote, m in found:
        if not m or not tail_ok(m) or (m.groupdict().get("noun") or noun).lower() != noun:
            continue
        when = kind_condition([m.group("who")], prop_name, kinds)
        v = parse_value(m.group("v"), kind, enum, m.groupdict().get("unit"), prop_name, doc) if when else None
        if v is not None:
            out.append((when, v, quote))
    return out


# "For Application Load Balancers, the supported protocols are HTTP and
# HTTPS." in `Protocol`'s documentation: a kind of the resource, named by
# the values that property takes for it.
KIND_DEFINED = re.compile(
    r"^for\s+(?P<kind>[A-Za-z][A-Za-z ]+?),\s+the\s+supported\s+(?P<noun>[a-z]+?)s?\s+(?:is|are)\s+(?P<vals>[A-Za-z0-9_` ,]+?)\s*\.?$", re.I
)
# "For Network Load Balancers and Gateway Load Balancers, the default is
# TCP." / "For Application Load Balancers, you can specify values between
# 200 and 499, with the default value being 200.": a default for kinds that
# another property's documentation defines (above).
KIND_PHRASE_DEFAULT = re.compile(
    r"^for\s+(?P<who>[A-Za-z][A-Za-z ,]+?),\s+(?:the\s+default(?:\s+value)?\s+is\s+|[^,]*,\s+with\s+the\s+default\s+value\s+being\s+)"
    + VALUE + UNIT + TAIL,
    re.I,
)


def defined_kinds(docs, kinds):
    """{kind phrase (lower case): {property: [values]}} for the kinds a
    top-level property's documentation defines by its values. `docs` maps a
    top-level property to its documentation, `kinds` to its enum; every
    value named must be in the enum, and a phrase two properties define
    names no one condition."""
    found = {}
    for prop, text in sorted(docs.items()):
        enum = kinds.get(prop)
        for s in sentences(text) if enum else []:
            m = KIND_DEFINED.match(s)
            if not m or m.group("noun").lower() != prop.lower():
                continue
            vals = [v.strip().strip("`").strip() for v in re.split(r",|\band\b|\bor\b", m.group("vals"))]
            vals = [v for v in vals if v]
            if vals and all(v in enum for v in vals):
                found.setdefault(m.group("kind").lower(), []).append({prop: sorted(set(vals))})
    return {k: v[0] for k, v in found.items() if len(v) == 1}


def phrase_kind_defaults(doc, kind, enum, prop_name, defined):
    """[({property: [value]}, value, quote)] for defaults stated for kinds
    of the resource that `defined` (from `defined_kinds`) names; every kind
    of one sentence must be defined by the same other property."""
    out = []
    for s in sentences(doc):
        m = KIND_PHRASE_DEFAULT.match(s)
        if not m or not tail_ok(m):
            continue
        names = [n.strip().lower() for n in re.split(r",|\band\b|\bor\b", m.group("who")) if n.strip()]
        conds = [defined.get(n) for n in names]
        if not names or any(c is None for c in conds) or len({next(iter(c)) for c in conds}) != 1:
            continue
        prop = next(iter(conds[0]))
        if prop == prop_name:
            continue
        v = parse_value(m.group("v"), kind, enum, m.groupdict().get("unit"), prop_name, doc)
        if v is not None:
            out.append(({prop: sorted({x for c in conds for x in c[prop]})}, v, s))
    return out


# "The default for `gp3` volumes is 3,000 IOPS." on an EBS block's `Iops`:
# the kind a value of a sibling member's enum (`VolumeType`).
KIND_NOUN_DEFAULT = re.compile(
    r"^the\s+default\s+for\s+`(?P<who>[A-Za-z0-9_-]+)`\s+[a-z]+s\s+is\s+(?:`(?P<q>[^`]+)`|(?P<n>" + NUM + r"))", re.I
)


def member_kind_defaults(doc, kind, enum, prop_name, member_enums):
    """[({"./<sibling>": [value]}, value, quote)] for a nested property's
    default stated for one kind, the kind a value of exactly one sibling
    member's enum ("For HTTP, the default is 80." on a target group
    config's `Port`, beside its `Protocol`). `member_enums()` gives the
    siblings' enums; it is asked only when a sentence has the form."""
    found = []
    for s in sentences(doc):
        m = KIND_DEFAULT.match(s)
        if m and tail_ok(m):
            found.append((s, m.group("who"), m.group("v"), m.groupdict().get("unit")))
            continue
        m = KIND_NOUN_DEFAULT.match(s.strip())
        if m:
            rest = re.match(r"^\s*(?P<unit>[A-Za-z/]+)?\s*\.?$", s.strip()[m.end():])
            if rest:
                found.append((s, m.group("who"), "`%s`" % m.group("q") if m.group("q") else m.group("n"), None))
    out = []
    kinds = member_enums() if found else {}
    for quote, who, raw, unit in found:
        when = kind_condition([who], prop_name, kinds)
        v = parse_value(raw, kind, enum, unit, prop_name, doc) if when else None
        if v is not None:
            (sib, vals), = when.items()
            out.append(({"./" + sib: vals}, v, quote))
    return out


def kind_condition(whos, prop_name, kinds):
    """{property: [values]} for the one property (other than `prop_name`)
    whose enum holds every kind named in `whos` (in any case), else None."""
    owners = []
    for p, e in sorted(kinds.items()):
        hits = [next((x for x in e if isinstance(x, str) and x.lower() == w.lower()), None) for w in whos]
        if p != prop_name and all(h is not None for h in hits):
            owners.append({p: sorted(set(hits))})
    if len(owners) > 1:
        # "UDP target groups" names the group's own `Protocol`, not its
        # `HealthCheckProtocol`: the one name the others only qualify.
        bare = [o for o in owners if all(next(iter(x)).endswith(next(iter(o))) for x in owners)]
        owners = bare
    return owners[0] if len(owners) == 1 else None


# "By default, the `level` is set to `OFF`." in an object's documentation:
# the default of the member it names.
MEMBER_DEFAULT = re.compile(r"^by\s+default,?\s+the\s+`(?P<m>[A-Za-z0-9_]+)`\s+is\s+(?:set\s+to\s+)?" + VALUE + r"\s*\.?$", re.I)


def member_defaults(text, path, props, doc):
    """[(member, value, sentence)] for defaults an object's documentation
    states for one of its members by name."""
    found = [m for m in map(MEMBER_DEFAULT.match, sentences(text)) if m]
    if not found:
        return []
    members = {pp[len(path) + 1 :]: p for pp, _, p in props if pp.startswith(path + ".") and "." not in pp[len(path) + 1 :]}
    out = []
    for m in found:
        sent = m.string
        name = next((k for k in members if k.lower() == m.group("m").lower()), None)
        if name is None:
            continue
        node = schema_node_at(doc, path + "." + name) or {}
        v = parse_value(m.group("v"), kind_of(members[name]) or node.get("type"), node.get("enum"), None, name, text)
        if v is not None:
            out.append((name, v, sent))
    return out


def camel(words):
    return "".join(w[:1].upper() + w[1:] for w in words)


# "[HTTP1 or HTTP2 protocol version] The ping path. The default is /.": a
# line whose bracketed lead names the values of a sibling property.
BRACKET_CONDITION = re.compile(r"^\[(?P<alts>[A-Za-z0-9_]+(?:(?:\s*,\s*|\s+or\s+|\s+and\s+)[A-Za-z0-9_]+)*)\s+(?P<subj>[a-z][a-z ]*?)\]\s*(?P<rest>.+)$", re.I)
# A bare path value ("The default is /."), taken as written in that form.
BARE_PATH = re.compile(r"^/[A-Za-z0-9_./-]*$")


def condition_on(subj, alts_text, top_props, enums_of):
    """({sibling: [values]}) for a condition whose words spell a sibling
    top-level property and whose values fit its enum, else None."""
    words = subj.lower().split()
    prop = next((camel(words[i:]) for i in range(len(words)) if camel(words[i:]) in top_props), None)
    if prop is None:
        return None
    alts = [a.strip().strip("`").strip() for a in re.split(r",|\bor\b|\band\b", alts_text)]
    alts = [a for a in alts if a]
    allowed = enums_of(prop)
    if not alts or any(not BARE_TOKEN.match(a) for a in alts):
        return None
    if allowed and any(a not in allowed for a in alts):
        # Match the schema's spelling when only the case differs.
        fixed = [next((x for x in allowed if x.lower() == a.lower()), None) for a in alts]
        if any(f is None for f in fixed):
            return None
        alts = fixed
    return {prop: sorted(set(alts))}


# "Default:" / "Valid Values:" followed by one line per product: "- RDS for
# MySQL - `3306`", "- Aurora PostgreSQL - `postgresql-license`". The
# product is a value of a sibling (`Engine`: `mysql`, `aurora-postgresql`)
# spelled as words: equal once both are squashed to letters and digits, a
# leading "<service> for " dropped ("RDS for MySQL" -> `mysql`).
PRODUCT_HEADER = re.compile(r"^(?P<head>default|valid\s+values)\s*:\s*$", re.I)
PRODUCT_LINE = re.compile(r"^[-*]\s*(?P<who>[A-Z][A-Za-z0-9 ]*?)\s+[-–:]\s+(?P<vals>`[^`]+`(?:\s+or\s+`[^`]+`)*)\s*(?P<rest>.*)$")
LISTED_VALUE = re.compile(r"^[-*]?\s*`(?P<v>[^`]+)`")


def squash(words):
    """Letters and digits only, lower case: "Aurora MySQL" -> auroramysql."""
    return re.sub(r"[^a-z0-9]", "", words.lower())


def listed_values(doc):
    """The values a documentation's own list names, one per line ("-
    `aurora-mysql` (for Aurora MySQL DB instances)", "- `mysql`")."""
    return [m.group("v") for ln in re.split(r"\n+", doc or "") if (m := LISTED_VALUE.match(ln.strip()))]


def product_value(who, values_of):
    """{property: [value]} for the one sibling value a product's words
    spell, else None."""
    names = {squash(who), squash(re.sub(r"^[A-Za-z]+\s+for\s+", "", who))}
    hits = [(p, v) for p, vals in sorted(values_of.items()) for v in vals if isinstance(v, str) and squash(v) in names]
    return {hits[0][0]: [hits[0][1]]} if len(hits) == 1 else None


def product_list_defaults(doc, kind, enum, prop_name, values_of):
    """[(when, value, line)] from a "Default:" list of one value per
    product, or a "Valid Values:" list where a product has one value (the
    value it must hold). `values_of` maps a top-level sibling to the values
    its schema or its own list names."""
    out, head = [], None
    for ln in re.split(r"\n+", doc or ""):
        ln = ln.strip()
        h = PRODUCT_HEADER.match(ln)
        if h:
            head = h.group("head").lower()
            continue
        m = PRODUCT_LINE.match(ln) if head else None
        if not m:
            head = head if ln.startswith(("-", "*")) else None
            continue
        vals = re.findall(r"`([^`]+)`", m.group("vals"))
        when = product_value(m.group("who"), values_of)
        rest_ok = not m.group("rest") or m.group("rest").startswith(".")
        if len(vals) == 1 and when and rest_ok:
            v = parse_value("`" + vals[0] + "`", kind, enum, None, prop_name, doc)
            if v is not None:
                out.append((when, v, ln))
    return out


def conditioned_defaults(doc, kind, enum, prop_name, top_props, enums_of):
    """[(when, value, sentence)] for defaults stated under a condition on a
    sibling top-level property ("if the target type is `lambda`")."""
    out = []
    for s in sentences(doc):
        for rx in CONDITIONED + [CONDITIONED_SWITCH]:
            m = rx.match(s)
            if not m or not tail_ok(m):
                continue
            if m.groupdict().get("noun") and not prop_name.lower().endswith(m.group("noun").lower()):
                continue
            if rx is CONDITIONED_SWITCH and not (kind == "boolean" and switch_names(m.group("what"), prop_name)):
                continue
            when = condition_on(m.group("subj"), m.group("alts"), top_props, enums_of)
            if when is None:
                continue
            if rx is CONDITIONED_SWITCH:
                v = (m.group("state") or m.group("always")).lower() == "enabled"
            else:
                v = parse_value(m.group("v"), kind, enum, m.groupdict().get("unit"), prop_name, doc)
            if v is not None:
                out.append((when, v, s))
            break
    for line in re.split(r"\n+", doc or ""):
        b = BRACKET_CONDITION.match(line.strip())
        when = b and condition_on(b.group("subj"), b.group("alts"), top_props, enums_of)
        if not when:
            continue
        # The line's own defaults, one unconditioned value (as above).
        found = set()
        for s in sentences(b.group("rest")):
            for rx in DEFAULT_SENTENCES:
                m = rx.match(s)
                if not m or not tail_ok(m) or not names_this(m, prop_name):
                    continue
                raw = m.group("v")
                raw = "`" + raw + "`" if kind == "string" and BARE_PATH.match(raw) else raw
                v = parse_value(raw, kind, enum, m.groupdict().get("unit"), prop_name, doc)
                if v is not None:
                    found.add((json.dumps(v), s))
                break
        if len({f[0] for f in found}) == 1:
            v, s = found.pop()
            out.append((when, json.loads(v), line.strip()))
    return out


# "If you don't specify an instance type in a launch template or for
# `instanceTypes` , then `t3.medium` is used, by default." (EKS node group):
# the default holds only where the other place named (a sibling top-level
# property the words spell) is left out too; with a launch template the
# value comes from it, which realdrift does not read.
UNLESS_SIBLING = re.compile(
    r"^if\s+you\s+(?:don't|do\s+not)\s+specify\s+(?:an?\s+)?[a-z][a-z ]{1,40}?\s+in\s+(?:an?|the)\s+(?P<sib>[a-z][a-z ]{1,40}?)"
    r"\s+or\s+for\s+`(?P<own>[A-Za-z0-9]+)`\s*,\s+(?:then\s+)?(?P<v>`[^`]+`)\s+is\s+used(?:\s*,?\s+by\s+default)?\s*\.?$",
    re.I,
)


def unless_sibling_defaults(doc, kind, enum, prop_name, top_props, item_kind=None):
    """[(when, value, sentence)] for a default that holds while a sibling
    the sentence names as the other place to set it is absent."""
    out = []
    for s in sentences(doc):
        m = UNLESS_SIBLING.match(s)
        if not m or m.group("own").lower() != prop_name.lower():
            continue
        sib = camel(m.group("sib").split())
        v = parse_value(m.group("v"), kind, enum, None, prop_name, doc, item_kind)
        if sib in top_props and sib != prop_name and v is not None:
            out.append(({sib: [None]}, v, s))
    return out


# "If you use containers in a task with the `awsvpc` or `host` network mode,
# the `hostPort` can either be left blank or set to the same value as the
# `containerPort`." (ECS port mappings): under that condition the only value
# the property can hold is its sibling's, so left out it reads back as that
# sibling's value. Nothing else can be hidden: any other value is refused.
FORCED_SAME = re.compile(
    r"^if\s+you\s+use\s+[a-z ]+?\s+with\s+the\s+(?P<alts>`[^`]+`(?:\s*(?:,|or)\s*`[^`]+`)*)\s+(?P<subj>[a-z][a-z ]{1,40}?),\s+"
    r"the\s+`?(?P<own>[A-Za-z]+)`?\s+can\s+either\s+be\s+left\s+blank\s+or\s+set\s+to\s+the\s+same\s+value\s+as\s+"
    r"the\s+`?(?P<sib>[A-Za-z]+)`?\s*\.?$",
    re.I,
)


def forced_sibling_defaults(doc, prop_name, siblings, top_props, enums_of):
    """[(when, sibling, sentence)] where, under a condition on a top-level
    property, the documentation leaves the property only its sibling's
    value. `siblings` are the other members of the object holding it."""
    out = []
    for s in sentences(doc):
        m = FORCED_SAME.match(s)
        if not m or m.group("own").lower() != prop_name.lower():
            continue
        sib = next((x for x in siblings if x.lower() == m.group("sib").lower()), None)
        when = condition_on(m.group("subj"), m.group("alts"), top_props, enums_of)
        if sib and when:
            out.append((when, sib, s))
    return out


# "If you do not specify a desired capacity when creating the stack, the
# default is the minimum size of the group." (Auto Scaling
# `DesiredCapacity`): the default is a sibling's value, the sibling named by
# words each of its own name's words begins ("min" "size" -> `MinSize`).
SIBLING_NAMED_DEFAULT = re.compile(
    r"^if\s+you\s+(?:do\s+not|don't)\s+specify\s+an?\s+(?P<subj>[a-z][a-z ]{1,40}?)(?:\s+when\s+creating\s+the\s+stack)?,\s+"
    r"the\s+default(?:\s+value)?\s+is\s+the\s+(?P<w>[a-z][a-z ]{2,40}?)(?:\s+of\s+the\s+[a-z ]+?)?\s*\.?$",
    re.I,
)


def sibling_named_default(doc, prop_name, siblings):
    """(sibling, sentence) when the documentation says the property left
    out takes the value of the one sibling its words name."""
    for s in sentences(doc):
        m = SIBLING_NAMED_DEFAULT.match(s)
        if not m or camel(m.group("subj").split()).lower() != prop_name.lower():
            continue
        words = m.group("w").lower().split()

        def named(sib):
            parts = [x.lower() for x in name_parts(sib)]
            return len(parts) == len(words) and all(len(a) >= 3 and b.startswith(a) for a, b in zip(parts, words))

        hits = [x for x in siblings if x != prop_name and named(x)]
        if len(hits) == 1:
            return hits[0], s
    return None


# "- `EXTENDABLE_RETENTION_PRICING` - ... The default retention period for
# this billing mode is 366 days." in BillingMode's documentation: the
# default of a sibling (RetentionPeriod) while this property holds the
# bullet's value.
VALUE_BULLET = re.compile(r"^[-*]\s*`(?P<val>[A-Za-z0-9_.:-]+)`\s*[-–:]\s*(?P<rest>.+)$")
SIBLING_DEFAULT = re.compile(
    r"^the\s+default\s+(?P<subj>[a-z][a-z ]{1,40}?)\s+for\s+this\s+[a-z][a-z ]{1,40}?\s+is\s+" + VALUE + UNIT + TAIL, re.I
)


def value_bullet_defaults(text, prop_name, own_enum, top):
    """[(sibling, {prop_name: [value]}, default, sentence)] for a sibling's
    default stated under one of this property's listed values. `top` maps
    a top-level property to (kind, enum, documentation)."""
    out = []
    for line in re.split(r"\n+", text or ""):
        b = VALUE_BULLET.match(line.strip())
        if not b or (isinstance(own_enum, list) and b.group("val") not in own_enum):
            continue
        for s in sentences(b.group("rest")):
            m = SIBLING_DEFAULT.match(s)
            if not m or not tail_ok(m):
                continue
            sib = camel(m.group("subj").split())
            if sib == prop_name or sib not in top:
                continue
            kind, enum, doc = top[sib]
            v = parse_value(m.group("v"), kind, enum, m.groupdict().get("unit"), sib, doc)
            if v is not None:
                out.append((sib, {prop_name: [b.group("val")]}, v, "%s: `%s` - ... %s" % (prop_name, b.group("val"), s)))
    return out


def switch_names(what, prop_name):
    """True when a switch's subject ("health checks") spells the property
    less its `Enabled` (HealthCheckEnabled) or `Enable`
    (EnableTokenRevocation)."""
    base = re.sub(r"Enabled?$", "", prop_name)
    if base == prop_name:
        base = re.sub(r"^Enable(?=[A-Z])", "", prop_name)
    words = what.lower().split()
    spelled = camel(words)
    return base != prop_name and base.lower() in (spelled.lower(), spelled.lower().rstrip("s"))


def chosen_sentence(doc):
    for s in sentences(doc):
        if GENERATED_NAME.search(s):
            continue
        if (CHOSEN_TRIGGER.search(s) and CHOSEN_VERB.search(s)) or CHOSEN_WHOLE.search(s):
            return s
    return None


# "By default, the Kubernetes version of the cluster is used, ..." (EKS
# node group `Version`): the version the parent resource ran at create,
# which a later upgrade of either moves; chosen then, not a constant.
PARENT_VERSION = re.compile(r"^by\s+default,?\s+the\s+(?:[a-z]+\s+){0,2}?version\s+of\s+the\s+[a-z]+\s+is\s+used\b", re.I)
# "If you don't specify a value here, the default version available in
# Amazon EKS is used." (EKS cluster `Version`) / "If no version is
# specified, then the template's default version is used." (a node group's
# launch template `Version`): the version that is the default at create,
# which AWS stores and a later change of the default does not move.
DEFAULT_VERSION_USED = re.compile(
    r"^if\s+(?:you\s+(?:don't|do\s+not)\s+specify\s+(?:a\s+value|this|one)(?:\s+here)?|no\s+version\s+is\s+specified)\s*,\s+"
    r"(?:then\s+)?the\s+(?:[a-z]+'s\s+)?default\s+version(?:\s+available\s+in\s+(?:aws\s+|amazon\s+)?[A-Za-z0-9]+)?"
    r"\s+(?:is|will\s+be)\s+used\s*\.?$",
    re.I,
)


def latest_version_sentence(doc, prop_name):
    """The sentence saying a version property defaults to the newest version
    AWS offers at create time, to its parent's version then, or to the
    version that is the default then, else None."""
    if not prop_name.endswith("Version"):
        return None
    for s in sentences(doc):
        if (LATEST_VERSION.search(s) and not LATEST_VERSION_NOT.search(s)) or PARENT_VERSION.search(s) or DEFAULT_VERSION_USED.search(s):
            return s
    return None


# "If specified, these values override the values obtained from the solution
# stack or the source configuration template." / "These options override the
# values that are defined in the solution stack ...": a collection of
# settings that overrides another source's values holds, for every item left
# out, the value that source chose at create (Elastic Beanstalk fills in the
# platform's full option set).
OVERRIDES_SOURCE = re.compile(
    r"^(?:if\s+specified,\s+)?these\s+(?:values|options|settings)\s+override\s+the\s+values\s+"
    r"(?:obtained\s+from|(?:that\s+are\s+)?defined\s+in)\s+the\s+[a-z]",
    re.I,
)


def overridden_items_sentence(doc):
    """The sentence saying a collection's items override another source's
    values, else None."""
    return next((s for s in sentences(doc) if OVERRIDES_SOURCE.search(s)), None)


def lowercase_sentence(doc):
    for s in sentences(doc):
        if LOWERCASE_STORED.search(s):
            return s
    return None


def header_name_sentence(doc):
    """The documentation's opening sentence when it says the property is
    the name of a header ("The HTTP response header name."): header names
    have no case (RFC 9110 for HTTP, RFC 5322 for mail). Only the opening
    sentence, which says what the property is; a header named later in
    the text (a mapping expression, an example) says nothing of the
    property's own case."""
    first = next(iter(sentences(doc)), None)
    return first if first and HEADER_NAME_DOC.match(first) else None
