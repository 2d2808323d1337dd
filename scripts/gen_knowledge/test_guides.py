"""Rules of the `guide` source on real guide rows (python3 -m unittest
gen_knowledge.test_guides, from scripts/; scripts/test.sh runs it)."""
import unittest

from .guides import CONDITIONED, console_only, newer_agrees

SQS = "awsdocs/amazon-sqs-developer-guide"


class ConsoleOrApi(unittest.TestCase):
    def test_a_console_page_is_not_an_api_default(self):
        row = {"repo": SQS, "title": "Creating an Amazon SQS queue (console)", "heading": "",
               "text": "The console provides default values for all settings except for the queue name."}
        self.assertTrue(console_only(row))

    def test_a_console_page_naming_the_api_is(self):
        row = {"repo": SQS, "title": "Creating an Amazon SQS queue (console)", "heading": "",
               "text": "If you don't specify a value in the API, the default is 30 seconds."}
        self.assertFalse(console_only(row))

    def test_a_reference_sentence_is_not_a_console_one(self):
        row = {"repo": "awsdocs/aws-cloudformation-user-guide", "title": "AWS::GameLift::GameSessionQueue",
               "heading": "Properties", "text": "By default, this property is set to `600`."}
        self.assertFalse(console_only(row))


class Conditioned(unittest.TestCase):
    def test_a_sentence_continuing_its_page_is_conditioned(self):
        s = "Thus, the `EnableGlobalWriteForwarding` setting is turned off by default for secondary clusters."
        self.assertTrue(CONDITIONED.search(s))

    def test_a_plain_default_is_not(self):
        self.assertFalse(CONDITIONED.search("The default value is `false`."))
        self.assertFalse(CONDITIONED.search("Defaults to PUBLIC when not set."))


class NewerWins(unittest.TestCase):
    def test_a_newer_value_refuses_the_guide(self):
        self.assertFalse(newer_agrees("Default: 1,048,576 bytes (1 MiB).", 262144))

    def test_a_newer_condition_refuses_the_guide(self):
        s = "The default value is `0.0.0.0/0` and additionally `::/0` for dual-stack `IPv6` clusters."
        self.assertFalse(newer_agrees(s, ["0.0.0.0/0"]))

    def test_newer_behaviour_in_words_refuses_the_guide(self):
        s = ("If you don't specify either, Amazon EC2 Auto Scaling will automatically apply optimal "
             "price protection to consistently select from a wide range of instance types.")
        self.assertFalse(newer_agrees(s, 100))

    def test_an_unnamed_newer_default_leaves_the_guide_standing(self):
        self.assertTrue(newer_agrees("If you don't specify a request timeout, the queue uses a default value.", 600))

    def test_the_same_value_agrees(self):
        self.assertTrue(newer_agrees("The default is 1,000,000.", 1000000))
        self.assertTrue(newer_agrees("The default value is false.", False))


if __name__ == "__main__":
    unittest.main()
