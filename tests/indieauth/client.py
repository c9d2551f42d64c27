"""An IndieAuth app, made of Authlib's OAuth 2.0 client, for tests/api/indieauth.rs.

    client.py start  STATE_FILE PROFILE_URL CLIENT_ID REDIRECT_URI SCOPE
        discovers the blog's IndieAuth metadata from its page (the Link header's
        rel="indieauth-metadata", else the <link> element), makes the authorization URL with
        PKCE (S256) and a state, keeps the verifier in STATE_FILE, prints the URL.
    client.py finish STATE_FILE REDIRECTED_URL
        checks the state and the issuer (`iss`), redeems the code at the token endpoint with the
        verifier, prints the token endpoint's answer as JSON.
    client.py revoke STATE_FILE TOKEN
        revokes the token at the revocation endpoint; prints the status.

A blog on *.localhost is reached on 127.0.0.1 with its Host header (QUIRE_PORT).
"""

import json
import os
import re
import sys
from urllib.parse import parse_qs, urlparse

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session


def fetch_page(url):
    parsed = urlparse(url)
    port = os.environ["QUIRE_PORT"]
    response = requests.get(
        f"http://127.0.0.1:{port}{parsed.path or '/'}",
        headers={"Host": parsed.netloc},
        timeout=10,
    )
    response.raise_for_status()
    return response


def metadata_url(page):
    for link in requests.utils.parse_header_links(page.headers.get("link", "")):
        if "indieauth-metadata" in link.get("rel", "").split():
            return link["url"]
    match = re.search(r'<link rel="indieauth-metadata" href="([^"]+)"', page.text)
    if not match:
        sys.exit("the profile page names no indieauth-metadata")
    return match.group(1)


def start(state_file, profile, client_id, redirect_uri, scope):
    metadata = requests.get(metadata_url(fetch_page(profile)), timeout=10).json()
    if "S256" not in metadata["code_challenge_methods_supported"]:
        sys.exit("the server does not offer S256")
    verifier = generate_token(64)
    client = OAuth2Session(client_id, redirect_uri=redirect_uri, scope=scope, code_challenge_method="S256")
    url, state = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=verifier, me=profile
    )
    with open(state_file, "w") as f:
        json.dump({"verifier": verifier, "state": state, "metadata": metadata, "client_id": client_id,
                   "redirect_uri": redirect_uri, "scope": scope}, f)
    print(url)


def finish(state_file, redirected):
    with open(state_file) as f:
        kept = json.load(f)
    query = parse_qs(urlparse(redirected).query)
    if query.get("iss") != [kept["metadata"]["issuer"]]:
        sys.exit(f"iss {query.get('iss')} is not the issuer {kept['metadata']['issuer']}")
    client = OAuth2Session(kept["client_id"], redirect_uri=kept["redirect_uri"], scope=kept["scope"],
                           state=kept["state"], code_challenge_method="S256")
    token = client.fetch_token(
        kept["metadata"]["token_endpoint"],
        authorization_response=redirected,
        code_verifier=kept["verifier"],
        # A public client: its id in the body, no secret.
        client_id=kept["client_id"],
        include_client_id=True,
    )
    print(json.dumps(dict(token)))


def revoke(state_file, token):
    with open(state_file) as f:
        kept = json.load(f)
    client = OAuth2Session(kept["client_id"])
    response = client.revoke_token(kept["metadata"]["revocation_endpoint"], token=token)
    print(response.status_code)


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"start": start, "finish": finish, "revoke": revoke}[command](*args)
