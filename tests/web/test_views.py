from django.test import Client


def test_home_page_links_the_api_docs(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert b"<h1>Cardroom</h1>" in response.content
    assert b'href="/api/docs/"' in response.content
