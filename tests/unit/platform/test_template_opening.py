"""What template.yaml gives a fair opening (issue 45): its public files served by CloudFront from a private
bucket with a 1 s cache, written by the SaleAdmission function alone, and the optional web ACL limiting
each IP address's registrations; read as CloudFormation receives it (aws-sam-translator)."""

from __future__ import annotations

import json
import shlex
import tomllib
from typing import Any

import pytest

from local.template import ROOT
from tests.unit.platform.test_template_operations import of_type, translate

SCHEDULED_STATUS_WRITER = "SaleAdmissionFunction"


@pytest.fixture(scope="module")
def prod() -> dict[str, Any]:
    return translate({"Stage": "prod"})


@pytest.fixture(scope="module")
def prod_with_waf() -> dict[str, Any]:
    return translate({"Stage": "prod", "RegistrationWafRateLimit": "300"})


def test_the_files_bucket_is_private_and_read_only_by_its_distribution(prod: dict[str, Any]) -> None:
    resources = prod["Resources"]
    bucket = resources["EdgeFilesBucket"]["Properties"]
    # Then nothing of it is public, and its objects are the bucket owner's
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert bucket["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]
    # And CloudFront alone reads it, signed (origin access control), only sales/* and only for this distribution
    control = resources["EdgeFilesOriginAccessControl"]["Properties"]["OriginAccessControlConfig"]
    assert (control["OriginAccessControlOriginType"], control["SigningBehavior"]) == ("s3", "always")
    [reads, https_only] = resources["EdgeFilesBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert reads["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert reads["Action"] == "s3:GetObject"
    assert reads["Resource"] == {"Fn::Sub": "${EdgeFilesBucket.Arn}/sales/*"}
    assert "${EdgeFilesDistribution}" in reads["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]
    assert (https_only["Effect"], https_only["Condition"]) == ("Deny", {"Bool": {"aws:SecureTransport": False}})


def test_the_distribution_serves_the_bucket_over_https_with_a_one_second_cache(prod: dict[str, Any]) -> None:
    resources = prod["Resources"]
    config = resources["EdgeFilesDistribution"]["Properties"]["DistributionConfig"]
    [origin] = config["Origins"]
    assert origin["DomainName"] == {"Fn::GetAtt": ["EdgeFilesBucket", "RegionalDomainName"]}
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["EdgeFilesOriginAccessControl", "Id"]}
    behavior = config["DefaultCacheBehavior"]
    assert behavior["ViewerProtocolPolicy"] == "redirect-to-https"
    assert behavior["AllowedMethods"] == ["GET", "HEAD"]
    assert behavior["CachePolicyId"] == {"Ref": "EdgeFilesCachePolicy"}
    cache = resources["EdgeFilesCachePolicy"]["Properties"]["CachePolicyConfig"]
    assert (cache["MinTTL"], cache["DefaultTTL"], cache["MaxTTL"]) == (1, 1, 1)
    assert prod["Outputs"]["EdgeFilesUrl"]["Value"] == {"Fn::Sub": "https://${EdgeFilesDistribution.DomainName}"}


def test_the_catalog_answers_the_distributions_url_of_a_queued_cars_status(prod: dict[str, Any]) -> None:
    # Given every function's environment
    functions = of_type(prod["Resources"], "AWS::Lambda::Function")
    given = {
        name: f["Properties"]["Environment"]["Variables"]["EDGE_FILES_URL"]
        for name, f in functions.items()
        if "EDGE_FILES_URL" in f["Properties"]["Environment"]["Variables"]
    }
    # Then the catalog, which answers a car's `sale.queue.statusUrl`, is told the distribution's https URL
    assert given == {"CatalogFunction": prod["Outputs"]["EdgeFilesUrl"]["Value"]}


def test_only_the_admission_controller_writes_the_files_and_only_under_sales(prod: dict[str, Any]) -> None:
    functions = of_type(prod["Resources"], "AWS::Lambda::Function")
    # Given every function's environment and role
    given = {
        name for name, f in functions.items() if "EDGE_FILES_BUCKET" in f["Properties"]["Environment"]["Variables"]
    }
    assert given == {SCHEDULED_STATUS_WRITER}
    variables = functions[SCHEDULED_STATUS_WRITER]["Properties"]["Environment"]["Variables"]
    assert variables["EDGE_FILES_BUCKET"] == {"Ref": "EdgeFilesBucket"}
    roles = of_type(prod["Resources"], "AWS::IAM::Role")
    writes = [
        statement
        for name, role in roles.items()
        for policy in role["Properties"].get("Policies", [])
        for statement in policy.get("PolicyDocument", {}).get("Statement", [])
        if "s3:PutObject" in json.dumps(statement)
    ]
    assert writes == [
        {"Effect": "Allow", "Action": "s3:PutObject", "Resource": {"Fn::Sub": "${EdgeFilesBucket.Arn}/sales/*"}}
    ]


def test_the_registration_web_acl_is_off_by_default_and_limits_each_address_when_set(
    prod: dict[str, Any], prod_with_waf: dict[str, Any]
) -> None:
    # Given the template without the parameter, then with a limit of 300 registrations in 5 minutes
    assert prod["Parameters"]["RegistrationWafRateLimit"]["Default"] == 0
    conditions = prod["Conditions"]
    assert conditions["HasRegistrationWaf"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "RegistrationWafRateLimit"}, "0"]}]}
    acl = prod_with_waf["Resources"]["RegistrationWebAcl"]
    association = prod_with_waf["Resources"]["RegistrationWebAclAssociation"]
    # Then the web ACL and its association exist only under the condition
    assert acl["Condition"] == association["Condition"] == "HasRegistrationWaf"
    # And its one rule blocks an address past the limit, counting only POSTs of a registration
    [rule] = acl["Properties"]["Rules"]
    assert rule["Action"] == {"Block": {}}
    limit = rule["Statement"]["RateBasedStatement"]
    assert (limit["Limit"], limit["AggregateKeyType"]) == ({"Ref": "RegistrationWafRateLimit"}, "IP")
    matches = [s["ByteMatchStatement"] for s in limit["ScopeDownStatement"]["AndStatement"]["Statements"]]
    assert {(m["PositionalConstraint"], m["SearchString"]) for m in matches} == {
        ("EXACTLY", "POST"),
        ("ENDS_WITH", "/entries"),
    }
    # And it guards the API's stage
    assert "/restapis/${Api}/stages/${Stage}" in association["Properties"]["ResourceArn"]["Fn::Sub"]
    assert association["DependsOn"] == "ApiStage"


def test_every_environment_says_whether_its_registration_web_acl_is_on() -> None:
    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    for environment in ("default", "dev", "staging", "prod"):
        given = config[environment]["deploy"]["parameters"]["parameter_overrides"]
        overrides = dict(item.split("=", 1) for item in shlex.split(given))
        limit = int(overrides["RegistrationWafRateLimit"])
        assert limit == 0 or 10 <= limit <= 2_000_000_000, environment
